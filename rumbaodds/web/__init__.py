"""``rumbaodds serve``: a local web page and a JSON endpoint over the same answer as ``rumbaodds ask``.

- :mod:`.params`: the query string, checked and named like the command line's options.
- :mod:`.jobs`: long simulations run in the background with real progress, one at a time.
- :mod:`.app`: the routes, as plain functions of (method, path, query) for tests without sockets.
- :mod:`.server`: the standard library's threading HTTP server around them.
- ``page.html``: the one self-contained page (inline CSS and JS; works offline).
"""
