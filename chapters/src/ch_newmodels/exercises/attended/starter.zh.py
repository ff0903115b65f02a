def attended(pos: int, ratio: int, topk: int, window: int) -> int:
    """一层里位于 pos（从 0 数起）的 query 要关注的条目数：
    滑动窗口里的 token，加上已经压缩完成的条目，后者最多 topk 个
    （topk == 0 表示不设上限）。"""
    raise NotImplementedError  # 在这里写你的代码
