"""`tkg serve mcp`: tkg as an assistant's memory over the Model Context Protocol.

`tools` holds the tools and resources (each a thin call of one `Memory` method) and `run` the
start-up (address and token checks, one warm `Memory`, stdio or streamable HTTP). The MCP SDK is
imported only here and by ``tkg bench mcp``, so the rest of tkg does not load it.
"""
