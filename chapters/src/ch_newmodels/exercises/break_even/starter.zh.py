def break_even(per_token: float, state: int, window_bytes: int, window: int):
    """最小的整数上下文长度 n >= 1：此时请求随长度增长的 KV（每 token per_token 字节）
    不少于不随长度增长的内存（state，加上窗口里每个 token 的 window_bytes）；
    永远达不到时返回 None。"""
    raise NotImplementedError  # 在这里写你的代码
