"""Games spread over several stores by game id: the shard proxy (`ShardedService`), the game index and the
read side over every shard. It sits above both the application layer and the read side, whose pieces it
routes to; the map itself (`event_store.shard_map`) is storage."""
