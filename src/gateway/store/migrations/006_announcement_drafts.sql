-- Announcements prepared (POST …/announcements/prepare) and not yet published: the exact message
-- the author signs (EIP-712), kept until `expires_at` (ms since the epoch). Publishing (POST
-- …/announcements with the signature) checks the signature against this message and the token's
-- creator, then moves it to `announcements`.
CREATE TABLE announcement_drafts (
  id TEXT PRIMARY KEY,
  key_prefix TEXT NOT NULL,
  chain_id INTEGER NOT NULL,
  token TEXT NOT NULL,
  author TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  issued_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
