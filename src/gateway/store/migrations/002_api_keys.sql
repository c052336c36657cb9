-- API keys of the gateway (issued and revoked by the operator's CLI) and their usage summaries.
-- Only a SHA-256 of a key's secret is stored; the prefix (unique) finds the row.
CREATE TABLE api_keys (
  prefix TEXT PRIMARY KEY,
  environment TEXT NOT NULL,
  secret_sha256 TEXT NOT NULL,
  status TEXT NOT NULL,
  plan TEXT NOT NULL,
  -- JSON of the Partner plan's limits (null on the other plans).
  custom_limits TEXT,
  -- Space-separated lists.
  scopes TEXT NOT NULL,
  allowed_origins TEXT NOT NULL,
  owner TEXT NOT NULL,
  label TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT
);

-- Weighted units, admitted requests and refusals per key and UTC hour / day ("usage is
-- summarized hourly and daily": spec §8 rule 5). The limiter reloads a key's day and month from here.
CREATE TABLE usage_hourly (
  key_prefix TEXT NOT NULL,
  hour TEXT NOT NULL,
  units BIGINT NOT NULL,
  requests BIGINT NOT NULL,
  rejected BIGINT NOT NULL,
  PRIMARY KEY (key_prefix, hour)
);
CREATE TABLE usage_daily (
  key_prefix TEXT NOT NULL,
  day TEXT NOT NULL,
  units BIGINT NOT NULL,
  requests BIGINT NOT NULL,
  rejected BIGINT NOT NULL,
  PRIMARY KEY (key_prefix, day)
);
