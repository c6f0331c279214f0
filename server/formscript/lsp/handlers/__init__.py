"""The server's handlers, one module per feature group; each lists what it registers in
``FEATURES`` (method, handler, options) and ``COMMANDS`` (command name, handler).

Handlers take the server first (``ls``) and reach its parts through their public methods.
They import ``FormscriptServer`` at run time, not only for type checking: pygls reads the
annotations of command handlers to convert their arguments.
"""
