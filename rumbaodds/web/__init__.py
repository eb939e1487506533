"""``rumbaodds serve``: a local web page and a JSON endpoint over the same answer as ``rumbaodds ask``.

- :mod:`.params`: the query string, checked and named like the command line's options.
- :mod:`.jobs`: simulations on a bounded queue with real progress, limits and cancelling.
- :mod:`.app`: the routes, as plain functions of (method, path, query) for tests without sockets.
- :mod:`.server`: uvicorn (h11) and Starlette around them: it only moves bytes.
- ``page.html``: the one self-contained page (inline CSS and JS; works offline).
"""
