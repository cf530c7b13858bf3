import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

/**
 * Certificates for the sandbox PSP and its client: a private CA, a server certificate for 127.0.0.1 and
 * localhost, and a client certificate delivered the way Efí delivers one (a PKCS#12 bundle with a
 * passphrase). Keys come from node's crypto (native, fast); node-forge only assembles and signs the
 * X.509 structures and the .p12, which node's crypto cannot write.
 */

export interface PemPair {
  cert: string;
  key: string;
}

export interface MutualTlsMaterial {
  ca: PemPair;
  server: PemPair;
  client: PemPair;
  /** The client certificate, key and CA chain as PKCS#12 (DER), protected by `clientPassphrase`. */
  clientP12: Buffer;
  clientPassphrase: string;
}

function rsaKey(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

/**
 * A random positive serial in minimal DER: a first byte of 0x01–0x7f is neither negative nor a leading zero
 * (a leading 00 byte followed by a byte below 0x80 is "illegal padding" to OpenSSL: the former odd-length
 * serial with a leading 0 nibble made the sandbox PSP fail to start now and then).
 */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString("hex");
}

function certificate(options: {
  commonName: string;
  publicPem: string;
  issuer?: { cert: forge.pki.Certificate; keyPem: string };
  selfKeyPem: string;
  extensions: object[];
}): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(options.publicPem);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 24 * 3600 * 1000);
  const subject = [
    { name: "commonName", value: options.commonName },
    { name: "organizationName", value: "Balcao Pix Sandbox" },
    { name: "countryName", value: "BR" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(options.issuer ? options.issuer.cert.subject.attributes : subject);
  cert.setExtensions(options.extensions);
  cert.sign(forge.pki.privateKeyFromPem(options.issuer?.keyPem ?? options.selfKeyPem), forge.md.sha256.create());
  return cert;
}

export function createMutualTlsMaterial(passphrase = randomBytes(12).toString("base64url")): MutualTlsMaterial {
  const caKey = rsaKey();
  const caCert = certificate({
    commonName: "Balcao Pix Sandbox CA",
    publicPem: caKey.publicPem,
    selfKeyPem: caKey.privatePem,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const issuer = { cert: caCert, keyPem: caKey.privatePem };

  const serverKey = rsaKey();
  const serverCert = certificate({
    commonName: "localhost",
    publicPem: serverKey.publicPem,
    selfKeyPem: serverKey.privatePem,
    issuer,
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
        ],
      },
    ],
  });

  const clientKey = rsaKey();
  const clientCert = certificate({
    commonName: "balcao-pix-client",
    publicPem: clientKey.publicPem,
    selfKeyPem: clientKey.privatePem,
    issuer,
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", clientAuth: true },
    ],
  });

  const p12Asn1 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(clientKey.privatePem), [clientCert, caCert], passphrase, {
    algorithm: "aes256",
  });
  const clientP12 = Buffer.from(forge.asn1.toDer(p12Asn1).getBytes(), "binary");

  const pem = (c: forge.pki.Certificate) => forge.pki.certificateToPem(c);
  return {
    ca: { cert: pem(caCert), key: caKey.privatePem },
    server: { cert: pem(serverCert), key: serverKey.privatePem },
    client: { cert: pem(clientCert), key: clientKey.privatePem },
    clientP12,
    clientPassphrase: passphrase,
  };
}
