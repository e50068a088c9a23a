"""Whether a configuration name (API_KEY, braveApiKey, PROXY_URL) names a secret, by kb/effects.yaml secret_names."""

from __future__ import annotations

from dataclasses import dataclass

from auditor.extract.syntax import words



@dataclass(frozen=True, kw_only=True, slots=True)
class SecretNames:
    """The vocabulary of kb/effects.yaml secret_names (see the comment there for the order of the tests)."""

    words: frozenset[str]
    phrases: tuple[tuple[str, ...], ...]
    carrier_words: frozenset[str]
    carrier_owners: frozenset[str]
    negations: frozenset[str]
    not_secret_last: frozenset[str]
    not_secrets: frozenset[str] = frozenset()
    key_names: frozenset[str] = frozenset()  # words that make a following key/keys a thing's name (COMPONENT_KEYS)

    @classmethod
    def from_kb(cls, kb: dict) -> SecretNames:
        s = kb["secret_names"]
        return cls(words=frozenset(s["words"]), phrases=tuple(words(p) for p in s["phrases"]),
                   carrier_words=frozenset(s["carriers"]["words"]), carrier_owners=frozenset(s["carriers"]["owners"]),
                   negations=frozenset(s["negations"]), not_secret_last=frozenset(s["not_secret_last"]),
                   not_secrets=frozenset(s.get("not_secrets", ())), key_names=frozenset(s.get("key_names", ())))

    def secret(self, name: str) -> bool:
        ws = words(name)
        if not ws or name in self.not_secrets:
            return False
        if ws[-1] in self.carrier_words and any(w in self.carrier_owners for w in ws[:-1]):
            return True  # DATABASE_URL, redisUri, PROXY_URL: a URL that can carry user:password
        if ws[-1] in self.not_secret_last or ws[-1].endswith("s") and ws[-1][:-1] in self.not_secret_last:
            return False  # API_KEY_FILE, maxTokens, authError, TOKEN_URL (and their plurals: authorization_servers)
        if any(ws[i:i + len(p)] == p for p in self.phrases for i in range(len(ws) - len(p) + 1)):
            return True
        return any(w in self.words and (i == 0 or ws[i - 1] not in self.negations
                                        and not (w in {"key", "keys"} and ws[i - 1] in self.key_names))
                   for i, w in enumerate(ws))
