// Tokens of one group per stage and model (`tkg usage`). The sums come before count(DISTINCT):
// Kuzu 0.11.3 returns null for every sum that follows a count(DISTINCT ...) in a RETURN.
MATCH (u:TkgUsage)
WHERE u.group_id = $group_id
RETURN u.stage AS stage, u.model AS model, sum(u.calls) AS calls, sum(u.cached) AS cached,
       sum(u.fallbacks) AS fallbacks, sum(u.tokens_in) AS tokens_in, sum(u.tokens_out) AS tokens_out,
       count(DISTINCT u.episode_uuid) AS episodes
ORDER BY stage, model
