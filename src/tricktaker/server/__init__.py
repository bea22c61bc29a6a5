"""``tricktaker serve``: tables in the browser with friends and bots (docs/server.md).

Needs Starlette, uvicorn and SQLAlchemy, which the package installs; the core
(cards, engine, games) does not import this.
"""

from .app import create_app

__all__ = ["create_app"]
