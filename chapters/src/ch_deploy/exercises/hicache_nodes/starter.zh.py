def hicache_nodes(d_nodes: int, rho: float, pd_ratio: float, conservative: int) -> dict:
    """只有 rho 比例的 KV 留在 GPU 上时的解码节点数，以及每 pd_ratio 个解码节点配
    1 个预填充节点后的总节点数。节点只能整台买：conservative == 0 时四舍五入
    （原文的算法），为 1 时向上取整。返回 {"d_nodes": int, "total_nodes": int}。"""
    raise NotImplementedError  # 在这里写你的代码
