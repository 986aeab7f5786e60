"""What a client can cause, priced and budgeted before any work: guards, limits, addresses, safe logs."""
