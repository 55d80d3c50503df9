// The write-ahead log size at which Kuzu checkpoints (setting it takes a literal: see KuzuStore).
CALL current_setting('checkpoint_threshold') RETURN *
