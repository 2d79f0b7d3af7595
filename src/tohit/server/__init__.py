"""`tohit serve`: the HTTP API for play at the table and for tools (FastAPI on uvicorn)."""
