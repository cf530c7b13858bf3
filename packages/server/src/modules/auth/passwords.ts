import argon2 from "argon2";
import type { Config } from "../../config/env";

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Burns the same time as a real verify, so unknown emails cannot be told apart by timing. */
  verifyDummy(password: string): Promise<void>;
}

export function createPasswordHasher(config: Pick<Config, "argon2">): PasswordHasher {
  const options = { type: argon2.argon2id, ...config.argon2 };
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => argon2.hash(password, options),
    verify: async (hash, password) => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
    verifyDummy: async (password) => {
      dummy ??= argon2.hash("balcao-dummy-password", options);
      await argon2.verify(await dummy, password).catch(() => false);
    },
  };
}
