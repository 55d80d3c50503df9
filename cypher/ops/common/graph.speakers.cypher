// Who speaks in a group, most turns first.
MATCH (e:Episodic)
WHERE e.group_id = $group_id
RETURN e.speaker AS speaker, count(e) AS turns
ORDER BY turns DESC, speaker
