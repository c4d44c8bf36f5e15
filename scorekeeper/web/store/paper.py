"""A paper sheet kept is a pulka with an opening and no deals (FORMAT.md §5): it is stored by store.pulkas as
any pulka is, with its opening in the pulka's file. Nothing of a sheet that is only settled is stored."""

from __future__ import annotations
