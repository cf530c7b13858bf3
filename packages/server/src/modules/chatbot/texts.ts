/** Fixed texts of the bot and the automatic messages (docs/api.md "Chatbot"). WhatsApp markup: *bold*, _italic_. */

/** Navigation keys: "#" = main menu (queue list), "0" = previous level. Option numbers are 1–999. */
export const KEY_MAIN_MENU = "#";
export const KEY_BACK = "0";

export const line = (key: string, label: string) => `*[ ${key} ]* - ${label}`;
export const BACK_LINE = line(KEY_BACK, "Menu anterior");
export const MAIN_MENU_LINE = line(KEY_MAIN_MENU, "Menu inicial");

export const INVALID_OPTION_TEXT = "Opção inválida, por favor, escolha uma opção válida.";
export const MENU_FALLBACK_TEXT = "Escolha uma das opções abaixo:";

/** Reference §7 prompt, on the spec's 1–3 scale (reference defect 15). */
export const RATING_SCALE_TEXT =
  "Digite de 1 a 3 para qualificar nosso atendimento:\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_";
export const RATING_INVALID_TEXT = "Resposta inválida. Por favor, responda apenas com um número de 1 a 3.";
export const RATING_THANKS_TEXT = "Obrigado pela sua avaliação!";

/** Reference §8: greeting on accept, rendered with the template variables ({{ms}}, {{name}}). */
export const acceptGreeting = (userName: string) =>
  `*Mensagem Automática:*\n{{ms}} *{{name}}*, meu nome é *${userName}* e agora vou prosseguir com seu atendimento!`;

/** Reference §8 transfer notices. */
export function transferNotice(change: { queueName?: string; userName?: string }): string | null {
  const head = "*Mensagem automática*:\n";
  const tail = "\naguarde, já vamos te atender!";
  if (change.queueName && change.userName)
    return `${head}Você foi transferido para o departamento *${change.queueName}* e contará com a presença de *${change.userName}*${tail}`;
  if (change.queueName) return `${head}Você foi transferido para o departamento *${change.queueName}*${tail}`;
  if (change.userName) return `${head}Você foi transferido para o atendente *${change.userName}*${tail}`;
  return null;
}

/** "1", " 2 ", "*3*", "[ 4 ]", "5." → the typed key; anything else as typed (trimmed). */
export function normalizeAnswer(body: string): string {
  const trimmed = body.trim();
  const m = /^[\s*_[(]*(#|\d{1,3})[\s*_\]).-]*$/.exec(trimmed);
  if (!m) return trimmed;
  return m[1] === KEY_MAIN_MENU ? KEY_MAIN_MENU : String(Number(m[1]));
}
