"""What a page or an API answer shows: built once per pulka version, in one language, kept while that
version lives. Values stay exact (ints, Fractions, Decimals): templates format them with the filters here,
and the API makes JSON numbers of them with `jsonable`.

The import rule: the domain, the engine, the renderers (render/) and markupsafe and segno for markup; no
Flask and no database. The edge (edge/presenting.py) finds a version's presenter for a request.
"""
