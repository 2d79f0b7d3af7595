"""The server's routes by concern, each module one APIRouter: stateless work, encounters, live streams, pictures,
and the admin's list. Authorization is a dependency of each route (server/authorization.py)."""
