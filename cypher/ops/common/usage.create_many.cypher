// A model's tokens for the turns of one ingest transaction, one row per turn, stage and model
// (tkg/ingest/model_extract.py splits a window's call across its turns). Written with the turns.
UNWIND $rows AS u
CREATE (:TkgUsage {uuid: u.uuid, group_id: $group_id, episode_uuid: u.episode_uuid, stage: u.stage,
                   model: u.model, calls: u.calls, cached: u.cached, fallbacks: u.fallbacks,
                   tokens_in: u.tokens_in, tokens_out: u.tokens_out, created_at: $created_at})
RETURN count(*) AS written
