# Mahjong Hall: one container running `mahjong-hall serve`.
# Build: docker build -t mahjong-hall .   (docker-compose.yml does this for you)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MAHJONG_LOG_FORMAT=json \
    MAHJONG_HEALTHCHECK_URL=http://127.0.0.1:8000/healthz \
    DATABASE_URL=sqlite+aiosqlite:////app/data/mahjong.sqlite3

WORKDIR /app

# DATABASE_URL above is only the fallback for a bare `docker run`: a SQLite file in
# /app/data (mount a volume there). docker-compose.yml points it at Postgres instead.

# A fixed, unprivileged user: the server never needs root, and a fixed uid keeps
# bind-mounted files readable across rebuilds.
RUN groupadd --system --gid 10001 mahjong \
    && useradd --system --uid 10001 --gid mahjong --home-dir /app --shell /usr/sbin/nologin mahjong

# The package is installed from pyproject.toml as an editable install rooted at /app, so
# the server finds web/ and migrations/ beside its own source, exactly as in a checkout.
# constraints.txt pins every dependency to the versions the tests passed on, so a rebuild
# next year installs the same ones.
COPY pyproject.toml README.md constraints.txt ./
COPY server ./server
COPY web ./web
COPY migrations ./migrations
RUN pip install --no-cache-dir -c constraints.txt -e . \
    && mkdir -p /app/data \
    && chown mahjong:mahjong /app/data

USER 10001:10001

EXPOSE 8000

# python:slim has no curl; the check is a few lines of the package's own code.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-m", "server.observability.healthcheck"]

# SIGTERM (docker stop) makes the server stop accepting, close every WebSocket with a
# "service restart" code and exit; compose gives it stop_grace_period to do so.
STOPSIGNAL SIGTERM
CMD ["mahjong-hall", "serve", "--host", "0.0.0.0"]
