"""A small PyTorch program to place on a machine's roofline: a few training steps of a
two-layer MLP with a layer norm (batch GEMMs, compute-bound on most CPUs), then one-row
inference through the same layers (GEMVs: the weights streamed once per row, as a
language model's decode step streams them).

    python3 examples/train.py [--steps 3] [--batch 256] [--width 2048] [--device cuda]
    rooftop profile --ceilings ceilings.h5 --torch --plot train.svg -- python3 examples/train.py

It knows nothing of rooftop: profile --torch runs it unmodified under torch.profiler.
"""

import argparse

import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3, help="training steps")
    parser.add_argument("--batch", type=int, default=256, help="rows of a training batch")
    parser.add_argument("--width", type=int, default=2048, help="the hidden layer's width")
    parser.add_argument("--device", default="cpu", help="where it runs (cpu, cuda)")
    args = parser.parse_args()

    torch.manual_seed(0)
    features, classes = 1024, 16
    model = torch.nn.Sequential(
        torch.nn.Linear(features, args.width),
        torch.nn.LayerNorm(args.width),
        torch.nn.ReLU(),
        torch.nn.Linear(args.width, features),
        torch.nn.ReLU(),
        torch.nn.Linear(features, classes),
    ).to(args.device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(args.batch, features, device=args.device)
    labels = torch.randint(0, classes, (args.batch,), device=args.device)
    for step in range(args.steps):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), labels)
        loss.backward()
        optimizer.step()
        print("step %d: loss %.4f" % (step, loss.item()))

    with torch.no_grad():
        for _ in range(8):
            model(torch.randn(1, features, device=args.device))
    print("done")


if __name__ == "__main__":
    main()
