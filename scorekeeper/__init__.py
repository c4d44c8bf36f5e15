"""scorekeeper: the electronic pulya for Preferans.

`scorekeeper.engine` is the pure scoring core; `scorekeeper.files.pulyafile` reads and
writes the pulka file; `scorekeeper.web` is the Flask app (imported only when used).
"""

__version__ = "0.1.0"
