-- Transaction plans the prepare routes returned (GET /plans/{id}), and the swap quotes a swap
-- prepare builds from. Both belong to the API key that asked (`key_prefix`); times are ms since
-- the epoch; `body` is the JSON answered. A plan is stale after `expires_at` or when its chain's
-- configuration digest (`config_digest`) is no longer the chain's; both are kept 24 hours.
CREATE TABLE transaction_plans (
  plan_id TEXT PRIMARY KEY,
  key_prefix TEXT NOT NULL,
  chain_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  config_digest TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX transaction_plans_created ON transaction_plans (created_at);

CREATE TABLE swap_quotes (
  quote_id TEXT PRIMARY KEY,
  key_prefix TEXT NOT NULL,
  chain_id INTEGER NOT NULL,
  wallet TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  -- The quote as answered, and the route plan it was priced with (to build the transaction).
  body TEXT NOT NULL,
  route_plan TEXT NOT NULL
);
CREATE INDEX swap_quotes_created ON swap_quotes (created_at);
