"""Ingestion jobs taken from a queue by `manda worker`, so listeners never wait for a data room."""

from manda.jobs.model import GridTask, IngestJob, JobStatus
from manda.jobs.port import JobQueue
from manda.jobs.service import JobService, RetryPolicy, Upload

__all__ = ["GridTask", "IngestJob", "JobQueue", "JobService", "JobStatus", "RetryPolicy", "Upload"]
