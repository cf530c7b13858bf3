/**
 * Voice notes must be OGG/Opus mono (channels.md §2.5). The default converter is the built-in wasm
 * one (channels/audio, no system packages); this ffmpeg path is an optional faster first try when an
 * ffmpeg binary is installed (FFMPEG_PATH). It runs ffmpeg with an argument array through pipes: no
 * shell, no file names from users (reference defect 12). Without ffmpeg, `toOggOpus` answers null.
 */
import { spawn } from "node:child_process";

const availability = new Map<string, Promise<boolean>>();

export function ffmpegAvailable(ffmpegPath: string): Promise<boolean> {
  let known = availability.get(ffmpegPath);
  if (!known) {
    known = new Promise((resolve) => {
      const child = spawn(ffmpegPath, ["-hide_banner", "-version"], { stdio: "ignore" });
      child.once("error", () => resolve(false));
      child.once("exit", (code) => resolve(code === 0));
    });
    availability.set(ffmpegPath, known);
  }
  return known;
}

export async function toOggOpus(input: Buffer, ffmpegPath: string, timeoutMs = 60_000): Promise<Buffer | null> {
  if (!(await ffmpegAvailable(ffmpegPath))) return null;
  const args = [
    "-hide_banner",
    "-loglevel",
    "error",
    "-i",
    "pipe:0",
    "-vn",
    "-ac",
    "1",
    "-ar",
    "48000",
    "-c:a",
    "libopus",
    "-b:a",
    "32k",
    "-f",
    "ogg",
    "pipe:1",
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`ffmpeg exited with ${code}: ${Buffer.concat(err).toString("utf8").slice(0, 300)}`));
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}
