def hash_loads(table: list[list[int]], ids: list[int], experts: int) -> list:
    """哈希路由：id 为 t 的 token 总是发往专家 table[t]。
    返回 [loads, imbalance]：每个专家收到的 token 数（int），以及最忙专家的负载
    除以平均负载（float；什么都没路由时为 0.0）。"""
    raise NotImplementedError  # 在这里写你的代码
