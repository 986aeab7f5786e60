"""Worker processes and their fair queues: bot moves, solves, analyses and coach advice off the event loop."""
