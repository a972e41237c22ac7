# The web app in a container (docs/hosting.md): `docker build -t perudo .` then
# `docker run -p 8000:8000 -v perudo-data:/data perudo`, or `docker compose up` for the app with
# PostgreSQL (compose.yaml). Only the server extra is installed (no test or research tools).
FROM python:3.11-slim-bookworm

# No C compiler: the solver's optional compiled kernel is skipped (the web app never uses it).
WORKDIR /app
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY src ./src
RUN pip install --no-cache-dir '.[server]' && rm -rf /app/src

RUN useradd --create-home --uid 10001 perudo && mkdir /data && chown perudo /data
USER perudo
WORKDIR /data

# Listen on every address of the container; games in an SQLite file on the /data volume unless
# PERUDO_DATABASE_URL names a database (compose.yaml: PostgreSQL).
ENV PERUDO_HOST=0.0.0.0 \
    PERUDO_PORT=8000 \
    PERUDO_DATABASE_URL=sqlite+aiosqlite:////data/perudo.db \
    PYTHONUNBUFFERED=1
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s \
    CMD python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"
CMD ["perudo", "serve"]
