/**
 * The texts of the connection-alert e-mail (issue 21) in pt (default), en and es. The reason and status
 * words are the web app's (features/connections/locales), kept in step by notifications.test.ts.
 */
import type { ConnectionHealthAlertDTO, ConnectionReason, ConnectionStatus, Language } from "@balcao/shared";
import { LOCALES } from "@balcao/shared";

const WORDS: Record<Language, { reasons: Record<ConnectionReason, string>; status: Record<ConnectionStatus, string> }> = {
  pt: {
    reasons: {
      loggedOut: "Desconectado no celular",
      replaced: "Substituída por outra sessão",
      badSession: "Sessão inválida (chaves corrompidas)",
      restartRequired: "Reinício necessário (normal após parear)",
      connectionLost: "Conexão perdida",
      unreachable: "WhatsApp inacessível (rede)",
      connectionClosed: "Conexão encerrada",
      serviceUnavailable: "WhatsApp indisponível",
      multideviceMismatch: "Aparelho conectado incompatível",
      forbidden: "Bloqueada pelo WhatsApp",
      qrTimeout: "QR Code não lido a tempo",
      pairingCodeExpired: "Código de pareamento expirou",
      startFailed: "Não foi possível iniciar",
      requested: "Pedido por um administrador",
      unknown: "Motivo desconhecido",
    },
    status: {
      qrcode: "Aguardando leitura do QR Code",
      PAIRING: "Pareando",
      OPENING: "Conectando",
      CONNECTED: "Conectado",
      DISCONNECTED: "Desconectado",
      TIMEOUT: "Conexão perdida",
    },
  },
  en: {
    reasons: {
      loggedOut: "Logged out on the phone",
      replaced: "Replaced by another session",
      badSession: "Bad session (keys corrupted)",
      restartRequired: "Restart required (normal after pairing)",
      connectionLost: "Connection lost",
      unreachable: "WhatsApp unreachable (network)",
      connectionClosed: "Connection closed",
      serviceUnavailable: "WhatsApp unavailable",
      multideviceMismatch: "Linked-device mismatch",
      forbidden: "Blocked by WhatsApp",
      qrTimeout: "QR code not scanned in time",
      pairingCodeExpired: "Pairing code expired",
      startFailed: "Could not start",
      requested: "Requested by an administrator",
      unknown: "Unknown reason",
    },
    status: {
      qrcode: "Waiting for the QR Code scan",
      PAIRING: "Pairing",
      OPENING: "Connecting",
      CONNECTED: "Connected",
      DISCONNECTED: "Disconnected",
      TIMEOUT: "Connection lost",
    },
  },
  es: {
    reasons: {
      loggedOut: "Sesión cerrada en el teléfono",
      replaced: "Reemplazada por otra sesión",
      badSession: "Sesión inválida (claves dañadas)",
      restartRequired: "Reinicio necesario (normal tras emparejar)",
      connectionLost: "Conexión perdida",
      unreachable: "WhatsApp inaccesible (red)",
      connectionClosed: "Conexión cerrada",
      serviceUnavailable: "WhatsApp no disponible",
      multideviceMismatch: "Dispositivo vinculado incompatible",
      forbidden: "Bloqueada por WhatsApp",
      qrTimeout: "Código QR no escaneado a tiempo",
      pairingCodeExpired: "El código de emparejamiento caducó",
      startFailed: "No se pudo iniciar",
      requested: "Solicitado por un administrador",
      unknown: "Motivo desconocido",
    },
    status: {
      qrcode: "Esperando la lectura del código QR",
      PAIRING: "Emparejando",
      OPENING: "Conectando",
      CONNECTED: "Conectado",
      DISCONNECTED: "Desconectado",
      TIMEOUT: "Conexión perdida",
    },
  },
};

const TEXT: Record<
  Language,
  { subject: string; down: string; scan: string; retrying: string; since: string; open: string; testSubject: string; testBody: string }
> = {
  pt: {
    subject: "[Balcão] Conexão {name} fora do ar: {reason}",
    down: "A conexão {name} está fora do ar há mais de {minutes} min.",
    scan: "O WhatsApp não aceitará esta sessão de volta: leia o QR Code (ou use o código no celular) na página de conexões.",
    retrying: "Ela continua tentando reconectar.",
    since: "Status: {status}. Motivo: {reason}. Fora do ar desde {since}.",
    open: "Ver a saúde da conexão: {url}",
    testSubject: "[Balcão] E-mail de teste",
    testBody: "Este é um e-mail de teste do Balcão. Os alertas de conexão da empresa {company} chegarão assim.",
  },
  en: {
    subject: "[Balcão] Connection {name} is down: {reason}",
    down: "The connection {name} has been down for more than {minutes} min.",
    scan: "WhatsApp will not let this session back in: scan the QR code (or use the code on the phone) on the connections page.",
    retrying: "It keeps trying to reconnect.",
    since: "Status: {status}. Reason: {reason}. Down since {since}.",
    open: "See the connection's health: {url}",
    testSubject: "[Balcão] Test e-mail",
    testBody: "This is a test e-mail from Balcão. The connection alerts of {company} will arrive like this.",
  },
  es: {
    subject: "[Balcão] Conexión {name} caída: {reason}",
    down: "La conexión {name} lleva caída más de {minutes} min.",
    scan: "WhatsApp no aceptará de nuevo esta sesión: escanee el código QR (o use el código en el teléfono) en la página de conexiones.",
    retrying: "Sigue intentando reconectar.",
    since: "Estado: {status}. Motivo: {reason}. Caída desde {since}.",
    open: "Ver la salud de la conexión: {url}",
    testSubject: "[Balcão] Correo de prueba",
    testBody: "Este es un correo de prueba de Balcão. Las alertas de conexión de {company} llegarán así.",
  },
};

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ""));

export interface MailContent {
  subject: string;
  text: string;
}

/** The words of a reason (or, without one, of the status) in a language. */
export function reasonText(language: Language, alert: Pick<ConnectionHealthAlertDTO, "reason" | "status">): string {
  const words = WORDS[language];
  return alert.reason ? words.reasons[alert.reason] : words.status[alert.status];
}

export function reasonWords(language: Language) {
  return WORDS[language];
}

/** The alert e-mail: subject and plain-text body naming the connection and the reason. */
export function alertMail(language: Language, alert: ConnectionHealthAlertDTO, publicUrl: string | undefined, timeZone: string): MailContent {
  const t = TEXT[language];
  const reason = reasonText(language, alert);
  const since = new Date(alert.since).toLocaleString(LOCALES[language], { timeZone, dateStyle: "short", timeStyle: "short" });
  return {
    subject: fill(t.subject, { name: alert.name, reason }),
    text: [
      fill(t.down, { name: alert.name, minutes: alert.minutes }),
      alert.needsScan ? t.scan : t.retrying,
      fill(t.since, { status: WORDS[language].status[alert.status], reason, since }),
      publicUrl && fill(t.open, { url: `${publicUrl.replace(/\/+$/, "")}/connections?health=${alert.connectionId}` }),
    ]
      .filter(Boolean)
      .join("\n\n"),
  };
}

export function testMail(language: Language, company: string): MailContent {
  const t = TEXT[language];
  return { subject: t.testSubject, text: fill(t.testBody, { company }) };
}
