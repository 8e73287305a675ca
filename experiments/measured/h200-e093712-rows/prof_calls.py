import time, statistics, torch, sumlab
from sumlab import _sumlab
x = torch.randn(1 << 12, device='cuda')
xl = torch.randn(1 << 28, device='cuda')
def host_us(fn, k=3000):
    for _ in range(50): fn()
    torch.cuda.synchronize()
    best = 1e9
    for r in range(5):
        t = time.perf_counter()
        for _ in range(k): fn()
        best = min(best, (time.perf_counter() - t) / k * 1e6)
        torch.cuda.synchronize()
    return best
def ev_us(fn, k=200):
    fn(); torch.cuda.synchronize(); ts = []
    for _ in range(k):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); b.synchronize(); ts.append(a.elapsed_time(b) * 1e3)
    return statistics.median(ts)
rows = [
 ('torch.linalg.vector_norm', lambda: torch.linalg.vector_norm(x)),
 ('torch.sum', lambda: torch.sum(x)),
 ('sumlab.reduce norm2 correct', lambda: sumlab.reduce(x, 'norm2', 'correct')),
 ('sumlab.reduce sum vec4', lambda: sumlab.reduce(x, 'sum', 'vec4')),
 ('sumlab.reduce var welford-ln', lambda: sumlab.reduce(x, 'var', 'welford-ln')),
 ('_sumlab.reduce norm2 correct', lambda: _sumlab.reduce(x, 'norm2', 'correct', None, 1)),
 ('_sumlab.reduce sum vec4', lambda: _sumlab.reduce(x, 'sum', 'vec4', None, 1)),
 ('x.__dlpack__()', lambda: x.__dlpack__()),
 ('torch.empty((), dtype, device)', lambda: torch.empty((), dtype=x.dtype, device=x.device)),
 ('x.new_empty(())', lambda: x.new_empty(())),
 ('raw stream', lambda: torch._C._cuda_getCurrentRawStream(0)),
 ('x.data_ptr()', lambda: x.data_ptr()),
 ('x.detach()', lambda: x.detach()),
]
for name, fn in rows:
    print('host_us %-34s %8.2f' % (name, host_us(fn)))
for name, fn in rows[:5]:
    print('event_us(2^12) %-34s %8.2f' % (name, ev_us(fn)))
for name, fn in [('torch.linalg.vector_norm', lambda: torch.linalg.vector_norm(xl)), ('sumlab norm2 correct', lambda: sumlab.reduce(xl, 'norm2', 'correct')), ('torch.sum', lambda: torch.sum(xl))]:
    print('event_us(2^28) %-34s %8.2f' % (name, ev_us(fn, 50)))
