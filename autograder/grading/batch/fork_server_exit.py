"""The local workers' fork server ends at once when the command does, with no teardown.

multiprocessing's fork server ends when the command's end of its pipe closes. With torch and nbgrader
imported (``warm_workers``), the interpreter's teardown would free their objects one by one long after
the command has returned; nothing of the server needs it. Imported only by the server (a preload
of ``warm_start.worker_context``), never by a Dask worker, whose exit handlers must run. The local
workers are forked from the server and multiprocessing ends each with ``os._exit``, so they never
reach this handler.
"""
import atexit
import os

atexit.register(os._exit, 0)
