-- Idempotency entries of the prepare routes (spec §3, §8): one per API key and Idempotency-Key
-- value. `fingerprint` is the SHA-256 of the route and the canonical body; a `running` entry is
-- held by `lease_id` until `lease_until` (ms since the epoch: a process killed mid-request leaves
-- its entry claimable once the lease ends); a `done` entry keeps the response (status, headers as
-- JSON, body) until `expires_at` (24 hours after the first request).
CREATE TABLE idempotency_entries (
  key_prefix TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL,
  lease_id TEXT NOT NULL,
  lease_until BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  status INTEGER,
  headers TEXT,
  body TEXT,
  PRIMARY KEY (key_prefix, idempotency_key)
);
CREATE INDEX idempotency_entries_expiry ON idempotency_entries (expires_at);
