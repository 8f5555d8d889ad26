import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from "node:crypto";
import { mkdirSync, readFileSync, unlinkSync, writeFileSync, linkSync } from "node:fs";
import path from "node:path";

/**
 * The Ed25519 key this client signs the Gateway's challenge with. The device id is the
 * sha256 (hex) of the raw 32-byte public key, as the Gateway recomputes it.
 */
export interface DeviceIdentity {
  deviceId: string;
  /** base64url of the raw 32-byte public key. */
  publicKey: string;
  privateKey: KeyObject;
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");

function rawPublicKey(privateKey: KeyObject): Buffer {
  // the SPKI DER of an Ed25519 key ends with the 32 raw key bytes
  const der = createPublicKey(privateKey).export({ format: "der", type: "spki" });
  return der.subarray(der.length - 32);
}

function fromPrivateKey(privateKey: KeyObject): DeviceIdentity {
  if (privateKey.asymmetricKeyType !== "ed25519")
    throw new Error(`device key must be Ed25519, got ${privateKey.asymmetricKeyType}`);
  const raw = rawPublicKey(privateKey);
  return {
    deviceId: createHash("sha256").update(raw).digest("hex"),
    publicKey: base64url(raw),
    privateKey,
  };
}

/** A fresh identity, kept in memory only. */
export function createDeviceIdentity(): DeviceIdentity {
  return fromPrivateKey(generateKeyPairSync("ed25519").privateKey);
}

/**
 * The identity stored at `file` (PKCS#8 PEM, mode 0600), created on first use. Two processes
 * creating it at once agree on one key: the file is published with link(), which fails when
 * another process published first, and then that key is read.
 */
export function loadOrCreateDeviceIdentity(file: string): DeviceIdentity {
  const read = (): DeviceIdentity | undefined => {
    let pem: string;
    try {
      pem = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      return fromPrivateKey(createPrivateKey(pem));
    } catch (error) {
      throw new Error(`gateway device identity ${file} is unreadable: ${(error as Error).message}`);
    }
  };
  const existing = read();
  if (existing) return existing;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync("ed25519");
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temp);
  }
  const stored = read();
  if (!stored) throw new Error(`gateway device identity ${file} vanished while it was created`);
  return stored;
}

export interface DeviceAuthFields {
  clientId: string;
  clientMode: string;
  role: string;
  scopes: readonly string[];
  signedAtMs: number;
  token: string;
  nonce: string;
  platform: string;
  deviceFamily: string;
}

/** The v3 payload the Gateway verifies: every field `|`-joined, platform and family lowercased. */
export function deviceAuthPayloadV3(deviceId: string, f: DeviceAuthFields): string {
  return [
    "v3",
    deviceId,
    f.clientId,
    f.clientMode,
    f.role,
    f.scopes.join(","),
    String(f.signedAtMs),
    f.token,
    f.nonce,
    f.platform.toLowerCase(),
    f.deviceFamily.toLowerCase(),
  ].join("|");
}

/** The `device` block of `connect`: the identity and its signature over the v3 payload. */
export function signDevice(identity: DeviceIdentity, fields: DeviceAuthFields) {
  const payload = deviceAuthPayloadV3(identity.deviceId, fields);
  return {
    id: identity.deviceId,
    publicKey: identity.publicKey,
    signature: base64url(sign(null, Buffer.from(payload, "utf8"), identity.privateKey)),
    signedAt: fields.signedAtMs,
    nonce: fields.nonce,
  };
}
