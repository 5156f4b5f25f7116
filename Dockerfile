# forumplay: slim, non-root, with a health check. Migrations run before the app serves.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/forumplay

COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install . \
    && useradd --create-home --uid 10001 forumplay \
    && mkdir -p /srv/forumplay/data \
    && chown forumplay:forumplay /srv/forumplay/data

COPY --chown=forumplay:forumplay alembic.ini ./
COPY --chown=forumplay:forumplay migrations ./migrations
COPY --chown=forumplay:forumplay scenarios ./scenarios

USER forumplay
EXPOSE 8000

HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"]

# `python -m app serve` applies Alembic migrations, then starts uvicorn.
CMD ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
