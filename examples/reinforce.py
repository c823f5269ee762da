"""A tiny REINFORCE learner over powergrid.rl.PowerGridEnv, with numpy only.

A linear softmax policy over the observation, masked to the legal indices,
learns from the terminal rank utility of each episode against random bots.
It is a template for the loop, not a strong player: a few episodes of a
2-player game run in seconds. Needs the extra: pip install "powergrid-rules[rl]".

Run: python examples/reinforce.py [--episodes 6]
"""

from __future__ import annotations

import argparse

import numpy as np
import numpy.typing as npt

from powergrid.rl import PowerGridEnv

Array = npt.NDArray[np.float64]


def masked_softmax(logits: Array, mask: npt.NDArray[np.bool_]) -> Array:
    """Probabilities over the legal indices only (illegal ones get exactly 0)."""
    z = np.where(mask, logits, -np.inf)
    z = np.exp(z - z[mask].max())
    return z / z.sum()  # type: ignore[no-any-return]


def run_episode(
    env: PowerGridEnv, weights: Array, rng: np.random.Generator, seed: int
) -> tuple[float, Array, int]:
    """Play one episode; return its reward, the summed log-probability gradient, and its steps."""
    obs, _ = env.reset(seed=seed)
    grad = np.zeros_like(weights)
    done, reward, steps = False, 0.0, 0
    while not done:
        mask = env.action_masks()
        probs = masked_softmax(weights @ obs, mask)
        action = int(rng.choice(len(probs), p=probs))
        # d log p(a) / dW = (onehot(a) - p) outer obs, for a linear softmax.
        delta = -probs
        delta[action] += 1.0
        grad += np.outer(delta, obs)
        obs, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        steps += 1
    return float(reward), grad, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=6)
    parser.add_argument("--learning-rate", type=float, default=0.01)
    args = parser.parse_args()

    env = PowerGridEnv(players=2, map="europe", components="classic", opponents="random")
    rng = np.random.default_rng(0)
    weights = np.zeros((env.codec.size, env.encoder.size))
    baseline = 0.0
    for episode in range(args.episodes):
        reward, grad, steps = run_episode(env, weights, rng, seed=episode)
        # REINFORCE with a running-mean baseline: push up what was played in good games.
        weights += args.learning_rate * (reward - baseline) * grad
        baseline += 0.5 * (reward - baseline)
        print(f"episode {episode}: {steps} decisions, reward {reward:+.2f}")


if __name__ == "__main__":
    main()
