// JSONRPC.md's calls go to the local JSON-RPC server (Tests/Servers/jsonrpc_server.py) when they run.
// replace: https://api.example.com/ => $WEBSERVICEKIT_JSONRPC_URL
