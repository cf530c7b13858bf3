/**
 * The closed error catalogue: every code the server may answer with (spec §8 plus Balcão's own), its default
 * HTTP status and its text in each language. The server's AppError accepts only these codes (a typo does not
 * compile) and the web app translates them from here, so a code and its text cannot drift apart.
 * `wire` is what goes in the response's `error` field when the spec names a text rather than a code.
 * Texts may interpolate the error's meta with {{name}} (i18next syntax).
 */
export interface ErrorDefinition {
  status: number;
  pt: string;
  en: string;
  es: string;
  wire?: string;
}

export const ERRORS = {
  ERR_NO_OTHER_WHATSAPP: {
    status: 400,
    pt: "Deve haver pelo menos uma conexão padrão.",
    en: "There must be at least one default connection.",
    es: "Debe haber al menos una conexión predeterminada.",
  },
  ERR_NO_DEF_WAPP_FOUND: {
    status: 400,
    pt: "Nenhuma conexão padrão encontrada. Verifique a página de conexões.",
    en: "No default connection found. Check the connections page.",
    es: "No se encontró ninguna conexión predeterminada. Verifique la página de conexiones.",
  },
  ERR_WAPP_NOT_INITIALIZED: {
    status: 400,
    pt: "Esta conexão não foi inicializada. Verifique a página de conexões.",
    en: "This connection has not been initialized. Check the connections page.",
    es: "Esta conexión no ha sido inicializada. Verifique la página de conexiones.",
  },
  ERR_WAPP_CHECK_CONTACT: {
    status: 400,
    pt: "Não foi possível verificar o contato no WhatsApp. Verifique a página de conexões.",
    en: "Could not check the WhatsApp contact. Check the connections page.",
    es: "No fue posible verificar el contacto de WhatsApp. Verifique la página de conexiones.",
  },
  ERR_WAPP_INVALID_CONTACT: {
    status: 400,
    pt: "Este não é um número de WhatsApp válido",
    en: "This is not a valid WhatsApp number",
    es: "Este no es un número de WhatsApp válido",
  },
  ERR_WAPP_DOWNLOAD_MEDIA: {
    status: 400,
    pt: "Não foi possível baixar a mídia do WhatsApp. Verifique a página de conexões.",
    en: "Could not download media from WhatsApp. Check the connections page.",
    es: "No fue posible descargar el archivo de WhatsApp. Verifique la página de conexiones.",
  },
  ERR_INVALID_CREDENTIALS: {
    status: 401,
    pt: "Erro de autenticação. Por favor, tente novamente.",
    en: "Authentication error. Please try again.",
    es: "Error de autenticación. Por favor, inténtelo de nuevo.",
  },
  ERR_SENDING_WAPP_MSG: {
    status: 400,
    pt: "Erro ao enviar a mensagem pelo WhatsApp. Verifique a página de conexões.",
    en: "Error sending the WhatsApp message. Check the connections page.",
    es: "Error al enviar el mensaje de WhatsApp. Verifique la página de conexiones.",
  },
  ERR_DELETE_WAPP_MSG: {
    status: 400,
    pt: "Não foi possível excluir a mensagem do WhatsApp.",
    en: "Could not delete the WhatsApp message.",
    es: "No fue posible eliminar el mensaje de WhatsApp.",
  },
  ERR_OTHER_OPEN_TICKET: {
    status: 400,
    pt: "Já existe um atendimento aberto para este contato.",
    en: "There is already an open ticket for this contact.",
    es: "Ya existe una atención abierta para este contacto.",
  },
  ERR_SESSION_EXPIRED: {
    status: 401,
    pt: "Sessão expirada. Por favor, entre novamente.",
    en: "Session expired. Please log in.",
    es: "Sesión expirada. Por favor, inicie sesión.",
  },
  ERR_USER_CREATION_DISABLED: {
    status: 400,
    pt: "A criação de usuários foi desabilitada pelo administrador.",
    en: "User creation has been disabled by the administrator.",
    es: "La creación de usuarios fue deshabilitada por el administrador.",
  },
  ERR_NO_PERMISSION: {
    status: 403,
    pt: "Você não tem permissão para acessar este recurso.",
    en: "You don't have permission to access this resource.",
    es: "No tiene permiso para acceder a este recurso.",
  },
  ERR_DUPLICATED_CONTACT: {
    status: 400,
    pt: "Este número já está cadastrado para outro contato",
    en: "This number is already registered for another contact",
    es: "Este número ya está registrado para otro contacto",
  },
  ERR_NO_SETTING_FOUND: {
    status: 404,
    pt: "Nenhuma configuração encontrada com este ID.",
    en: "No setting found with this ID.",
    es: "No se encontró ninguna configuración con este ID.",
  },
  ERR_NO_CONTACT_FOUND: {
    status: 404,
    pt: "Nenhum contato encontrado com este ID.",
    en: "No contact found with this ID.",
    es: "No se encontró ningún contacto con este ID.",
  },
  ERR_NO_TICKET_FOUND: {
    status: 400,
    pt: "Nenhum atendimento encontrado com este ID.",
    en: "No ticket found with this ID.",
    es: "No se encontró ninguna atención con este ID.",
  },
  ERR_NO_USER_FOUND: {
    status: 400,
    pt: "Nenhum usuário encontrado com este ID.",
    en: "No user found with this ID.",
    es: "No se encontró ningún usuario con este ID.",
  },
  ERR_NO_WAPP_FOUND: {
    status: 400,
    pt: "Nenhuma conexão encontrada com este ID.",
    en: "No connection found with this ID.",
    es: "No se encontró ninguna conexión con este ID.",
  },
  ERR_CREATING_MESSAGE: {
    status: 400,
    pt: "Erro ao criar a mensagem no banco de dados.",
    en: "Error creating the message in the database.",
    es: "Error al crear el mensaje en la base de datos.",
  },
  ERR_CREATING_TICKET: {
    status: 400,
    pt: "Erro ao criar o atendimento no banco de dados.",
    en: "Error creating the ticket in the database.",
    es: "Error al crear la atención en la base de datos.",
  },
  ERR_FETCH_WAPP_MSG: {
    status: 400,
    pt: "Erro ao buscar a mensagem no WhatsApp, talvez ela seja muito antiga.",
    en: "Error fetching the WhatsApp message, it may be too old.",
    es: "Error al buscar el mensaje en WhatsApp, tal vez sea muy antiguo.",
  },
  ERR_QUEUE_COLOR_ALREADY_EXISTS: {
    status: 400,
    pt: "Esta cor já está em uso, escolha outra.",
    en: "This color is already in use, pick another one.",
    es: "Este color ya está en uso, elija otro.",
  },
  ERR_WAPP_GREETING_REQUIRED: {
    status: 400,
    pt: "A mensagem de saudação é obrigatória quando há mais de uma fila.",
    en: "A greeting message is required when there is more than one queue.",
    es: "El mensaje de saludo es obligatorio cuando hay más de una cola.",
  },
  ERR_TOKEN_EXPIRED: {
    status: 403,
    pt: "Sessão expirada. Por favor, entre novamente.",
    en: "Session expired. Please log in.",
    es: "Sesión expirada. Por favor, inicie sesión.",
  },
  ERR_SUBSCRIPTION_EXPIRED: {
    status: 402,
    pt: "Sua assinatura venceu. Entre em contato com o suporte para mais informações.",
    en: "Your subscription has expired. Please contact support for more information.",
    es: "Su suscripción venció. Póngase en contacto con soporte para más información.",
  },
  ERR_TOO_MANY_ATTEMPTS: {
    status: 429,
    pt: "Muitas tentativas. Aguarde um pouco e tente novamente.",
    en: "Too many attempts. Wait a moment and try again.",
    es: "Demasiados intentos. Espere un momento e inténtelo de nuevo.",
  },
  ERR_DUPLICATED_EMAIL: {
    status: 400,
    pt: "Já existe um usuário com este e-mail.",
    en: "A user with this email already exists.",
    es: "Ya existe un usuario con este correo electrónico.",
  },
  ERR_DUPLICATED_COMPANY: {
    status: 400,
    pt: "Já existe uma empresa com este nome.",
    en: "A company with this name already exists.",
    es: "Ya existe una empresa con este nombre.",
  },
  ERR_NO_PLAN_FOUND: { status: 400, pt: "Plano não encontrado.", en: "Plan not found.", es: "Plan no encontrado." },
  ERR_NO_COMPANY_FOUND: { status: 404, pt: "Empresa não encontrada.", en: "Company not found.", es: "Empresa no encontrada." },
  ERR_USER_LIMIT_REACHED: {
    status: 400,
    pt: "Número máximo de usuários já alcançado: {{limit}}",
    en: "Maximum number of users already reached: {{limit}}",
    es: "Número máximo de usuarios ya alcanzado: {{limit}}",
  },
  ERR_CANNOT_DELETE_SELF: {
    status: 400,
    pt: "Você não pode excluir o seu próprio usuário.",
    en: "You cannot delete your own user.",
    es: "No puede eliminar su propio usuario.",
  },
  ERR_NO_QUEUE_FOUND: {
    status: 400,
    pt: "Nenhuma fila encontrada com este ID.",
    en: "No queue found with this ID.",
    es: "No se encontró ninguna cola con este ID.",
  },
  ERR_QUEUE_LIMIT_REACHED: {
    status: 400,
    pt: "Número máximo de filas do plano já alcançado: {{limit}}",
    en: "The plan's maximum number of queues has been reached: {{limit}}",
    es: "Se alcanzó el número máximo de colas del plan: {{limit}}",
  },
  ERR_QUEUE_NAME_ALREADY_EXISTS: {
    status: 400,
    pt: "Já existe uma fila com este nome.",
    en: "A queue with this name already exists.",
    es: "Ya existe una cola con este nombre.",
  },
  ERR_NO_QUEUE_OPTION_FOUND: {
    status: 400,
    pt: "Opção não encontrada nesta fila.",
    en: "Option not found in this queue.",
    es: "Opción no encontrada en esta cola.",
  },
  ERR_QUEUE_OPTION_ALREADY_EXISTS: {
    status: 400,
    pt: "Já existe uma opção com este número neste nível.",
    en: "An option with this number already exists at this level.",
    es: "Ya existe una opción con este número en este nivel.",
  },
  ERR_INVALID_SETTING_VALUE: {
    status: 400,
    pt: "Valor inválido para esta configuração.",
    en: "Invalid value for this setting.",
    es: "Valor inválido para esta configuración.",
  },
  ERR_NO_TAG_FOUND: { status: 404, pt: "Tag não encontrada.", en: "Tag not found.", es: "Etiqueta no encontrada." },
  ERR_NO_QUICK_MESSAGE_FOUND: {
    status: 404,
    pt: "Resposta rápida não encontrada.",
    en: "Quick reply not found.",
    es: "Respuesta rápida no encontrada.",
  },
  ERR_DUPLICATED_SHORTCODE: {
    status: 400,
    pt: "Já existe uma resposta rápida com este atalho.",
    en: "A quick reply with this shortcode already exists.",
    es: "Ya existe una respuesta rápida con este atajo.",
  },
  ERR_PAYLOAD_TOO_LARGE: {
    status: 413,
    pt: "O arquivo ou a requisição é grande demais.",
    en: "The file or request is too large.",
    es: "El archivo o la solicitud es demasiado grande.",
  },
  ERR_TICKET_NOT_OPEN: {
    status: 400,
    pt: "O atendimento precisa estar aberto para enviar mensagens.",
    en: "The ticket must be open to send messages.",
    es: "El ticket debe estar abierto para enviar mensajes.",
  },
  ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, pt: "Tipo de arquivo não suportado.", en: "Unsupported file type.", es: "Tipo de archivo no admitido." },
  ERR_NOT_FOUND: { status: 404, pt: "Registro não encontrado.", en: "Record not found.", es: "Registro no encontrado." },
  ERR_VALIDATION: {
    status: 400,
    pt: "Dados inválidos. Verifique os campos informados.",
    en: "Invalid data. Check the fields.",
    es: "Datos inválidos. Verifique los campos.",
  },
  ERR_INTERNAL: {
    status: 500,
    pt: "Erro interno do servidor. Tente novamente mais tarde.",
    en: "Internal server error. Try again later.",
    es: "Error interno del servidor. Inténtelo más tarde.",
  },
  ERR_CHANNEL_UNAVAILABLE: {
    status: 400,
    pt: "Este canal não está disponível neste servidor.",
    en: "This channel is not available on this server.",
    es: "Este canal no está disponible en este servidor.",
  },
  ERR_CLOUD_API_SETTINGS_REQUIRED: {
    status: 400,
    pt: "Informe o ID do número de telefone, o token de acesso, o segredo do app e o token de verificação da Cloud API.",
    en: "Enter the Cloud API phone number ID, access token, app secret and verify token.",
    es: "Indique el ID del número de teléfono, el token de acceso, el secreto de la app y el token de verificación de la Cloud API.",
  },
  ERR_CLOUD_API_NUMBER_IN_USE: {
    status: 409,
    pt: "Este número da Cloud API já está em outra conexão.",
    en: "This Cloud API number is already used by another connection.",
    es: "Este número de la Cloud API ya está en otra conexión.",
  },
  ERR_CLOUD_API_TEMPLATE_INVALID: {
    status: 400,
    pt: "Modelo não encontrado entre os aprovados desta conexão, ou com um número errado de parâmetros.",
    en: "Template not found among this connection's approved ones, or with the wrong number of parameters.",
    es: "Plantilla no encontrada entre las aprobadas de esta conexión, o con un número incorrecto de parámetros.",
  },
  ERR_OUTSIDE_WHATSAPP_WINDOW: {
    status: 400,
    pt: "Já se passaram mais de 24 horas desde a última mensagem do cliente: o WhatsApp só permite enviar um modelo aprovado.",
    en: "More than 24 hours have passed since the customer's last message: WhatsApp only allows an approved template.",
    es: "Han pasado más de 24 horas desde el último mensaje del cliente: WhatsApp solo permite enviar una plantilla aprobada.",
  },
  ERR_SIMULATOR_NO_MESSAGE: {
    status: 404,
    pt: "Mensagem não encontrada no simulador.",
    en: "Message not found in the simulator.",
    es: "Mensaje no encontrado en el simulador.",
  },
  ERR_SIMULATOR_INVALID_CODE: {
    status: 400,
    pt: "Código de pareamento inválido ou expirado.",
    en: "Invalid or expired pairing code.",
    es: "Código de emparejamiento inválido o expirado.",
  },
  ERR_DUPLICATED_CONNECTION: {
    status: 400,
    pt: "Já existe uma conexão com este nome.",
    en: "A connection with this name already exists.",
    es: "Ya existe una conexión con este nombre.",
  },
  ERR_CONNECTION_LIMIT_REACHED: {
    status: 400,
    pt: "Número máximo de conexões já alcançado: {{limit}}",
    en: "Maximum number of connections reached: {{limit}}",
    es: "Número máximo de conexiones alcanzado: {{limit}}",
  },
  ERR_ACCESS_DENIED: { status: 403, wire: "Acesso não permitido", pt: "Acesso não permitido", en: "Access denied", es: "Acceso no permitido" },
  ERR_QUEUE_REQUIRED: { status: 400, wire: "Selecione uma fila", pt: "Selecione uma fila", en: "Select a queue", es: "Seleccione una cola" },
  // Security and reliability (issue 11)
  ERR_TICKET_ALREADY_ACCEPTED: {
    status: 409,
    pt: "Este atendimento já foi aceito por outro atendente.",
    en: "This ticket was already accepted by another attendant.",
    es: "Esta atención ya fue aceptada por otro agente.",
  },
  ERR_INVALID_CHARACTERS: {
    status: 400,
    pt: "O texto contém caracteres de controle inválidos.",
    en: "The text contains invalid control characters.",
    es: "El texto contiene caracteres de control inválidos.",
  },
  ERR_INVALID_UPLOAD: {
    status: 400,
    pt: "O envio do arquivo está incompleto ou malformado. Tente novamente.",
    en: "The upload is incomplete or malformed. Try again.",
    es: "El envío del archivo está incompleto o malformado. Inténtelo de nuevo.",
  },
  // Platform administration (issue 12)
  ERR_DUPLICATED_PLAN: {
    status: 400,
    pt: "Já existe um plano com este nome.",
    en: "A plan with this name already exists.",
    es: "Ya existe un plan con este nombre.",
  },
  ERR_PLAN_IN_USE: {
    status: 409,
    pt: "Este plano está em uso por {{companies}} empresa(s) e não pode ser excluído.",
    en: "This plan is used by {{companies}} company(ies) and cannot be deleted.",
    es: "Este plan está en uso por {{companies}} empresa(s) y no se puede eliminar.",
  },
  ERR_CANNOT_DELETE_OWN_COMPANY: {
    status: 400,
    pt: "Você não pode excluir a empresa à qual pertence.",
    en: "You cannot delete the company you belong to.",
    es: "No puede eliminar la empresa a la que pertenece.",
  },
  ERR_NO_HELP_FOUND: { status: 404, pt: "Ajuda não encontrada.", en: "Help not found.", es: "Ayuda no encontrada." },
  ERR_NO_ANNOUNCEMENT_FOUND: { status: 404, pt: "Informativo não encontrado.", en: "Announcement not found.", es: "Anuncio no encontrado." },
  // Dashboard and reports (issue 14)
  ERR_DASHBOARD_FILTER_REQUIRED: {
    status: 400,
    wire: "Parametrize o filtro",
    pt: "Parametrize o filtro",
    en: "Set up the filter",
    es: "Configure el filtro",
  },
  ERR_INVALID_DATE_RANGE: {
    status: 400,
    pt: "A data inicial deve ser igual ou anterior à data final.",
    en: "The start date must be on or before the end date.",
    es: "La fecha inicial debe ser igual o anterior a la fecha final.",
  },
  // Billing (issue 13)
  ERR_NO_INVOICE_FOUND: { status: 404, pt: "Fatura não encontrada.", en: "Invoice not found.", es: "Factura no encontrada." },
  ERR_INVOICE_ALREADY_PAID: { status: 400, pt: "Esta fatura já está paga.", en: "This invoice is already paid.", es: "Esta factura ya está pagada." },
  ERR_CHECKOUT_AMOUNT_MISMATCH: {
    status: 400,
    pt: "O valor informado não confere com o da fatura ({{value}}). Recarregue a página e tente novamente.",
    en: "The amount sent does not match the invoice's ({{value}}). Reload the page and try again.",
    es: "El monto enviado no coincide con el de la factura ({{value}}). Recargue la página e inténtelo de nuevo.",
  },
  ERR_PIX_NOT_CONFIGURED: {
    status: 503,
    pt: "O pagamento por Pix ainda não foi configurado na plataforma. Entre em contato com o suporte.",
    en: "Pix payment is not configured on the platform yet. Please contact support.",
    es: "El pago por Pix aún no fue configurado en la plataforma. Póngase en contacto con soporte.",
  },
  ERR_PIX_PROVIDER_UNAVAILABLE: {
    status: 502,
    pt: "Não foi possível gerar a cobrança Pix agora. Tente novamente em instantes.",
    en: "The Pix charge could not be created right now. Try again in a moment.",
    es: "No fue posible generar el cobro Pix ahora. Inténtelo de nuevo en unos instantes.",
  },
  // Scheduled messages, Kanban (issue 15)
  ERR_NO_SCHEDULE_FOUND: { status: 404, pt: "Agendamento não encontrado.", en: "Scheduled message not found.", es: "Programación no encontrada." },
  ERR_SCHEDULE_IN_PAST: {
    status: 400,
    pt: "A data de envio já passou. Escolha um horário no futuro.",
    en: "The send time has already passed. Pick a time in the future.",
    es: "La fecha de envío ya pasó. Elija un horario en el futuro.",
  },
  ERR_SCHEDULE_ALREADY_SENT: {
    status: 400,
    pt: "Esta mensagem já foi enviada e não pode ser alterada.",
    en: "This message was already sent and cannot be changed.",
    es: "Este mensaje ya fue enviado y no se puede modificar.",
  },
  ERR_SCHEDULE_SENDING: {
    status: 409,
    pt: "Esta mensagem está sendo enviada agora. Aguarde alguns segundos.",
    en: "This message is being sent right now. Wait a few seconds.",
    es: "Este mensaje se está enviando ahora. Espere unos segundos.",
  },
  ERR_SCHEDULE_INTERRUPTED: {
    status: 400,
    pt: "O envio foi interrompido (o servidor reiniciou). Confira a conversa antes de tentar novamente.",
    en: "Sending was interrupted (the server restarted). Check the conversation before trying again.",
    es: "El envío se interrumpió (el servidor se reinició). Revise la conversación antes de intentarlo de nuevo.",
  },
  ERR_SEND_QUEUE_EXPIRED: {
    status: 400,
    pt: "Não enviada: a conexão ficou fora do ar por tempo demais. Confira a conversa antes de tentar novamente.",
    en: "Not sent: the connection was down for too long. Check the conversation before trying again.",
    es: "No enviado: la conexión estuvo caída demasiado tiempo. Revise la conversación antes de intentarlo de nuevo.",
  },
  ERR_KANBAN_LANE_CHANGED: {
    status: 409,
    pt: "O cartão já foi movido por outra pessoa. O quadro foi atualizado.",
    en: "The card was already moved by someone else. The board was refreshed.",
    es: "La tarjeta ya fue movida por otra persona. El tablero se actualizó.",
  },
  // Send API (issue 19)
  ERR_INVALID_API_TOKEN: {
    status: 401,
    pt: "Token de API inválido ou revogado.",
    en: "Invalid or revoked API token.",
    es: "Token de API inválido o revocado.",
  },
  ERR_WAPP_NOT_PAIRING: {
    status: 409,
    pt: "Esta conexão não está aguardando pareamento. Gere um novo QR code e tente novamente.",
    en: "This connection is not waiting to be paired. Ask for a new QR code and try again.",
    es: "Esta conexión no está esperando el emparejamiento. Genere un nuevo código QR e inténtelo de nuevo.",
  },
  ERR_WAPP_NOT_CONNECTED: {
    status: 409,
    pt: "A conexão não está conectada (status: {{status}}). Verifique a página de conexões.",
    en: "The connection is not connected (status: {{status}}). Check the connections page.",
    es: "La conexión no está conectada (estado: {{status}}). Verifique la página de conexiones.",
  },
  ERR_IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    pt: "Uma requisição com esta Idempotency-Key ainda está em andamento.",
    en: "A request with this Idempotency-Key is still in progress.",
    es: "Una solicitud con esta Idempotency-Key todavía está en curso.",
  },
  ERR_NO_WEBHOOK_FOUND: { status: 404, pt: "Webhook não encontrado.", en: "Webhook not found.", es: "Webhook no encontrado." },
  ERR_WEBHOOK_PRIVATE_TARGET: {
    status: 400,
    pt: "O endereço do webhook aponta para uma rede privada ou local, o que não é permitido neste servidor.",
    en: "The webhook address points to a private or local network, which this server does not allow.",
    es: "La dirección del webhook apunta a una red privada o local, lo que este servidor no permite.",
  },
  // Connection-alert e-mails (issue 21)
  ERR_SMTP_NOT_CONFIGURED: {
    status: 400,
    pt: "Configure o servidor SMTP (servidor, porta e remetente) antes de enviar e-mails.",
    en: "Set up the SMTP server (host, port and sender) before sending e-mails.",
    es: "Configure el servidor SMTP (servidor, puerto y remitente) antes de enviar correos.",
  },
  ERR_SMTP_SEND_FAILED: {
    status: 400,
    pt: "O servidor SMTP não aceitou o e-mail: {{detail}}",
    en: "The SMTP server did not accept the e-mail: {{detail}}",
    es: "El servidor SMTP no aceptó el correo: {{detail}}",
  },
  ERR_SMTP_PRIVATE_HOST: {
    status: 400,
    pt: "O servidor SMTP está em uma rede privada ou local, o que não é permitido neste servidor.",
    en: "The SMTP server is on a private or local network, which this server does not allow.",
    es: "El servidor SMTP está en una red privada o local, lo que este servidor no permite.",
  },
  ERR_NO_CHAT_FOUND: { status: 404, pt: "Conversa não encontrada.", en: "Chat not found.", es: "Conversación no encontrada." },
  // Campaigns (issue 17)
  ERR_NO_CAMPAIGN_FOUND: { status: 404, pt: "Campanha não encontrada.", en: "Campaign not found.", es: "Campaña no encontrada." },
  ERR_CAMPAIGNS_DISABLED: {
    status: 403,
    pt: "Campanhas não estão habilitadas para esta empresa.",
    en: "Campaigns are not enabled for this company.",
    es: "Las campañas no están habilitadas para esta empresa.",
  },
  ERR_CAMPAIGN_NOT_EDITABLE: {
    status: 400,
    pt: "Esta campanha não pode mais ser alterada (em andamento, finalizada ou programada para menos de 1 hora).",
    en: "This campaign can no longer be changed (running, finished or scheduled less than 1 hour ahead).",
    es: "Esta campaña ya no se puede modificar (en curso, finalizada o programada para menos de 1 hora).",
  },
  ERR_CAMPAIGN_CANNOT_CANCEL: {
    status: 400,
    pt: "Só é possível cancelar uma campanha em andamento.",
    en: "Only a running campaign can be cancelled.",
    es: "Solo se puede cancelar una campaña en curso.",
  },
  ERR_CAMPAIGN_CANNOT_RESTART: {
    status: 400,
    pt: "Só é possível reiniciar uma campanha cancelada.",
    en: "Only a cancelled campaign can be restarted.",
    es: "Solo se puede reiniciar una campaña cancelada.",
  },
  ERR_CAMPAIGN_RUNNING: {
    status: 409,
    pt: "A campanha está em andamento. Cancele-a antes de excluir.",
    en: "The campaign is running. Cancel it before deleting.",
    es: "La campaña está en curso. Cancélela antes de eliminarla.",
  },
  ERR_CAMPAIGN_LIST_NOT_FOUND: {
    status: 400,
    pt: "Lista de contatos não encontrada.",
    en: "Contact list not found.",
    es: "Lista de contactos no encontrada.",
  },
  ERR_CAMPAIGN_DUPLICATED_VARIABLE: {
    status: 400,
    pt: "Já existe uma variável com esta chave.",
    en: "A variable with this key already exists.",
    es: "Ya existe una variable con esta clave.",
  },
  // Contact lists (issue 17)
  ERR_NO_CONTACT_LIST_FOUND: {
    status: 404,
    pt: "Lista de contatos não encontrada.",
    en: "Contact list not found.",
    es: "Lista de contactos no encontrada.",
  },
  ERR_NO_CONTACT_LIST_ITEM_FOUND: {
    status: 404,
    pt: "Contato da lista não encontrado.",
    en: "List contact not found.",
    es: "Contacto de la lista no encontrado.",
  },
  ERR_DUPLICATED_CONTACT_LIST_ITEM: {
    status: 400,
    pt: "Este número já está nesta lista.",
    en: "This number is already in this list.",
    es: "Este número ya está en esta lista.",
  },
  ERR_CONTACT_LIST_IMPORT_FILE_TYPE: {
    status: 415,
    pt: "Envie uma planilha .xlsx ou .csv (planilhas .xls antigas: salve como .xlsx).",
    en: "Send an .xlsx or .csv spreadsheet (old .xls files: save them as .xlsx).",
    es: "Envíe una hoja de cálculo .xlsx o .csv (archivos .xls antiguos: guárdelos como .xlsx).",
  },
  ERR_CONTACT_LIST_IMPORT_UNREADABLE: {
    status: 400,
    pt: "Não foi possível ler a planilha. Confira o arquivo e tente novamente.",
    en: "The spreadsheet could not be read. Check the file and try again.",
    es: "No fue posible leer la hoja de cálculo. Revise el archivo e inténtelo de nuevo.",
  },
  ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN: {
    status: 400,
    pt: "A planilha não tem uma coluna de número (número, numero, telefone, whatsapp, number ou phone) na primeira linha.",
    en: "The spreadsheet has no number column (number, phone, whatsapp, número, telefone) in its first row.",
    es: "La hoja de cálculo no tiene una columna de número (número, teléfono, whatsapp, number o phone) en la primera fila.",
  },
  ERR_CONTACT_LIST_IMPORT_RUNNING: {
    status: 409,
    pt: "Já há uma importação em andamento nesta lista. Aguarde o fim.",
    en: "An import is already running for this list. Wait for it to finish.",
    es: "Ya hay una importación en curso en esta lista. Espere a que termine.",
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
export type Language = "pt" | "en" | "es";

/** What a response's `error` field carries for a code. */
export function wireError(code: ErrorCode): string {
  const def: ErrorDefinition = ERRORS[code];
  return def.wire ?? code;
}

const byWire = new Map<string, ErrorCode>(ERROR_CODES.map((code) => [wireError(code), code]));

/** The code behind a response's `error` field, when it is one of ours. */
export function errorCodeOf(wire: string): ErrorCode | undefined {
  return byWire.get(wire);
}

/** The translated texts of every code in one language, e.g. for i18n resources. */
export function errorTexts(language: Language): Record<ErrorCode, string> {
  return Object.fromEntries(ERROR_CODES.map((code) => [code, (ERRORS[code] as ErrorDefinition)[language]])) as Record<ErrorCode, string>;
}

/** The JSON body of every 4xx/5xx answer. `error` is a code of ERRORS (or its spec wire text). */
export interface ApiErrorBody {
  error: string;
  /** Field-level messages for validation failures. */
  issues?: { path: string; message: string }[];
  /** Extra data some errors carry (dueDate for ERR_SUBSCRIPTION_EXPIRED, limit for ERR_USER_LIMIT_REACHED). */
  meta?: Record<string, string | number>;
}
