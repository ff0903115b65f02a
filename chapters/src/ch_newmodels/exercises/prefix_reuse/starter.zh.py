def prefix_reuse(prefix_len: int, ratio: int) -> list:
    """长 prefix_len 个 token 的缓存前缀，对每 ratio 个 token 压成一个条目的层
    意味着什么：[reused_entries, tokens_covered, tail_tokens]，都是 int。"""
    raise NotImplementedError  # 在这里写你的代码
