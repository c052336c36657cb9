-- Salts handed out by POST /launches/prepare: each reserved for one creator on one chain until
-- its plan expires (`reserved_until`, ms since the epoch), so no two prepares hand out one salt
-- and another creator cannot be given a salt reserved for someone else. `predicted_token` is the
-- CREATE2 address the launch deploys to.
CREATE TABLE launch_salts (
  chain_id INTEGER NOT NULL,
  salt TEXT NOT NULL,
  creator TEXT NOT NULL,
  key_prefix TEXT NOT NULL,
  predicted_token TEXT NOT NULL,
  reserved_at BIGINT NOT NULL,
  reserved_until BIGINT NOT NULL,
  PRIMARY KEY (chain_id, salt)
);
