import { describe, expect, it } from "vitest";
import { listenAddress, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("fills CONTRACT.md's defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATABASE_PATH: "./data/app.db",
      UPLOAD_DIR: "./data/uploads",
      RATE_LIMITS: true,
      SEED_DEMO: false,
    });
  });
  it("reads flags and numbers", () => {
    const env = parseEnv({ PORT: "8080", RATE_LIMITS: "off", SEED_DEMO: "1", S3_BUCKET: "media" });
    expect(env).toMatchObject({ PORT: 8080, RATE_LIMITS: false, SEED_DEMO: true, S3_BUCKET: "media" });
  });
  it("treats empty strings as unset", () => {
    expect(parseEnv({ SESSION_SECRET: "", S3_ENDPOINT: "" }).S3_ENDPOINT).toBeUndefined();
  });
  it("refuses a bad value with one clear line", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/^Invalid environment: PORT/);
    expect(() => parseEnv({ RATE_LIMITS: "maybe" })).toThrow(/RATE_LIMITS/);
  });
  it("reads TRUST_PROXY, the number of reverse proxies in front (CONTRACT.md §6), default 0", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(() => parseEnv({ TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY/);
    expect(() => parseEnv({ TRUST_PROXY: "-1" })).toThrow(/TRUST_PROXY/);
  });
  it("reads HOST, where the server listens: loopback by default behind a proxy, every interface otherwise (security-2 N5)", () => {
    expect(parseEnv({}).HOST).toBeUndefined();
    expect(parseEnv({ HOST: "127.0.0.1" }).HOST).toBe("127.0.0.1");
    expect(parseEnv({ HOST: "::" }).HOST).toBe("::");
    expect(() => parseEnv({ HOST: "http://example.org" })).toThrow(/HOST/);
    expect(() => parseEnv({ HOST: "a b" })).toThrow(/HOST/);

    expect(listenAddress(parseEnv({ TRUST_PROXY: "1" }))).toMatchObject({ host: "127.0.0.1", why: expect.stringMatching(/TRUST_PROXY=1/) });
    expect(listenAddress(parseEnv({ TRUST_PROXY: "1", HOST: "10.0.0.5" }))).toMatchObject({ host: "10.0.0.5" });
    expect(listenAddress(parseEnv({ TRUST_PROXY: "1", HOST: "0.0.0.0" }))).toMatchObject({ host: "0.0.0.0" });
    expect(listenAddress(parseEnv({}))).toMatchObject({ host: undefined, why: expect.stringMatching(/every interface/) });
  });
  it("requires a session secret in production", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(/SESSION_SECRET is required in production/);
    expect(parseEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) }).NODE_ENV).toBe("production");
  });
  it("allows private push endpoints only outside production (CONTRACT.md §7)", () => {
    expect(parseEnv({}).PUSH_ALLOW_PRIVATE).toBe(false);
    expect(parseEnv({ PUSH_ALLOW_PRIVATE: "1" }).PUSH_ALLOW_PRIVATE).toBe(true);
    const production = { NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) };
    expect(() => parseEnv({ ...production, PUSH_ALLOW_PRIVATE: "1" })).toThrow(/PUSH_ALLOW_PRIVATE is for tests only/);
  });
  it("reads the mail settings; SMTP_URL needs PUBLIC_URL and MAIL_FROM (ADR 0028)", () => {
    const mail = {
      SMTP_URL: "smtp://u:p@mail.example.org:587",
      MAIL_FROM: "Pulse <pulse@example.org>",
      PUBLIC_URL: "https://pulse.example.org/",
    };
    expect(parseEnv(mail)).toMatchObject({ ...mail, PUBLIC_URL: "https://pulse.example.org" });
    expect(() => parseEnv({ ...mail, PUBLIC_URL: "" })).toThrow(/PUBLIC_URL is required when SMTP_URL is set/);
    expect(() => parseEnv({ ...mail, MAIL_FROM: "" })).toThrow(/MAIL_FROM is required when SMTP_URL is set/);
    expect(() => parseEnv({ ...mail, SMTP_URL: "http://mail.example.org" })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ PUBLIC_URL: "ftp://pulse.example.org" })).toThrow(/PUBLIC_URL/);
    expect(parseEnv({ PUBLIC_URL: "http://localhost:3000" }).SMTP_URL).toBeUndefined();
  });
  it("reads INSTANT_MAIL_DELAY_SECONDS, how long an instant mail waits: 2 minutes by default, 0 to 10 minutes (ADR 0085)", () => {
    expect(parseEnv({}).INSTANT_MAIL_DELAY_SECONDS).toBe(120);
    expect(parseEnv({ INSTANT_MAIL_DELAY_SECONDS: "0" }).INSTANT_MAIL_DELAY_SECONDS).toBe(0);
    expect(parseEnv({ INSTANT_MAIL_DELAY_SECONDS: "600" }).INSTANT_MAIL_DELAY_SECONDS).toBe(600);
    for (const bad of ["-1", "601", "1.5", "soon"])
      expect(() => parseEnv({ INSTANT_MAIL_DELAY_SECONDS: bad })).toThrow(/INSTANT_MAIL_DELAY_SECONDS/);
  });
  it("reads the operator's settings: LOG_LEVEL, BACKUP_DIR, BACKUP_INTERVAL_HOURS, BACKUP_KEEP (ADR 0040)", () => {
    expect(parseEnv({})).toMatchObject({ LOG_LEVEL: "info", BACKUP_DIR: "./data/backups", BACKUP_INTERVAL_HOURS: 0, BACKUP_KEEP: 7 });
    expect(parseEnv({ LOG_LEVEL: "warn", BACKUP_INTERVAL_HOURS: "6", BACKUP_KEEP: "14" })).toMatchObject({
      LOG_LEVEL: "warn",
      BACKUP_INTERVAL_HOURS: 6,
      BACKUP_KEEP: 14,
    });
    expect(() => parseEnv({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
    expect(() => parseEnv({ BACKUP_KEEP: "0" })).toThrow(/BACKUP_KEEP/);
    expect(() => parseEnv({ BACKUP_INTERVAL_HOURS: "-1" })).toThrow(/BACKUP_INTERVAL_HOURS/);
  });
});
