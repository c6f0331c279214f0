"""The support bot, scripted: a YAML fixture and a Python literal handed to lionagi's TestBranch."""

import asyncio
from pathlib import Path

from lionagi.testing import TestBranch

FIXTURES = Path(__file__).parent / "fixtures"


def chat(branch, *prompts):
    """Send each prompt in turn; the replies."""

    async def conversation():
        return [await branch.chat(prompt) for prompt in prompts]

    return asyncio.run(conversation())


def test_greets_and_answers_about_the_order():
    branch = TestBranch.from_yaml(FIXTURES / "support.script.yaml")
    replies = chat(branch, "hello", "where is my order?", "thanks")
    assert replies == ["Hello! How can I help?", "Your order #7 ships tomorrow.", "Anything else?"]


def test_says_hello_again():
    branch = TestBranch.from_yaml(FIXTURES / "support.script.yaml")
    assert chat(branch, "hello there") == ["Hello! How can I help?"]


def test_weather_from_a_literal():
    branch = TestBranch.from_responses(
        [
            {"type": "text", "content": "Sunny, 21 degrees."},
            {"type": "text", "content": "Take an umbrella.", "when": {"prompt_contains": "rain"}},
        ]
    )
    assert chat(branch, "weather today?") == ["Sunny, 21 degrees."]
