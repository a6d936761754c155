"""The results dashboard: ``/dashboard`` and its JSON API ``/api/dashboard/...``.

Include ``router`` in the app and call ``install_error_handlers(app)`` so access and
filter errors answer in the project's JSON error shape. The app provides
``app.state.store`` (the database) and, for live tables, ``app.state.manager``.
"""

from server.dashboard.routes import install_error_handlers, router

__all__ = ["install_error_handlers", "router"]
