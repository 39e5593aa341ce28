"""v34 prototypes (README.md): the warp-stage code block of an emitted table kernel."""


def warp_block(src: str, which: int) -> str:
    """The block `{ ... }` that follows the `which`-th comment "the stages in registers through the
    warp" of `src` (0: the twiddled kernel's, 1: the first pass's), up to the barrier after it."""
    lines = src.split('\n')
    starts = [i for i, line in enumerate(lines) if 'the stages in registers through the warp' in line]
    j = starts[which] + 1
    assert lines[j].strip() == '{', lines[j]
    k = j
    while not (lines[k] == '    }' and 'barrier' in lines[k + 1]):
        k += 1
    return '\n'.join(lines[j:k + 1])
