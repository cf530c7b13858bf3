import { PassThrough, type Readable } from "node:stream";
import ExcelJS from "exceljs";
import { tableToCsv, type ReportLanguage, type ReportRowDTO, type ReportsResponse, type ReportTable } from "@balcao/shared";

/** Headings of the report exports (the web app's tables use its own i18n keys with the same texts). */
const TEXTS = {
  pt: {
    sheets: { queues: "Filas", attendants: "Atendentes" },
    name: { queues: "Fila", attendants: "Atendente" },
    none: { queues: "Sem fila", attendants: "Usuário excluído" },
    tickets: "Atendimentos",
    avgWaitTime: "Espera média (min)",
    avgFirstResponse: "Primeira resposta média (min)",
    avgSupportTime: "Tempo médio de atendimento (min)",
    rating: "Avaliação média (1 a 3)",
    ratings: "Avaliações",
    period: "Período",
    from: "De",
    to: "Até",
    open: "—",
    timeZone: "Fuso horário",
  },
  en: {
    sheets: { queues: "Queues", attendants: "Attendants" },
    name: { queues: "Queue", attendants: "Attendant" },
    none: { queues: "No queue", attendants: "Deleted user" },
    tickets: "Tickets",
    avgWaitTime: "Average wait (min)",
    avgFirstResponse: "Average first response (min)",
    avgSupportTime: "Average support time (min)",
    rating: "Average rating (1 to 3)",
    ratings: "Ratings",
    period: "Period",
    from: "From",
    to: "To",
    open: "—",
    timeZone: "Time zone",
  },
  es: {
    sheets: { queues: "Colas", attendants: "Agentes" },
    name: { queues: "Cola", attendants: "Agente" },
    none: { queues: "Sin cola", attendants: "Usuario eliminado" },
    tickets: "Atenciones",
    avgWaitTime: "Espera promedio (min)",
    avgFirstResponse: "Primera respuesta promedio (min)",
    avgSupportTime: "Tiempo promedio de atención (min)",
    rating: "Calificación promedio (1 a 3)",
    ratings: "Calificaciones",
    period: "Período",
    from: "Desde",
    to: "Hasta",
    open: "—",
    timeZone: "Zona horaria",
  },
} as const;

const COLUMNS = ["tickets", "avgWaitTime", "avgFirstResponse", "avgSupportTime", "rating", "ratings"] as const;

function header(table: ReportTable, lang: ReportLanguage): string[] {
  const t = TEXTS[lang];
  return [t.name[table], ...COLUMNS.map((c) => t[c])];
}

const rowName = (r: ReportRowDTO, table: ReportTable, lang: ReportLanguage) => r.name ?? TEXTS[lang].none[table];

export function exportFileName(report: ReportsResponse, ext: "csv" | "xlsx", table?: ReportTable): string {
  const span = [report.period.from ?? "inicio", report.period.to ?? "hoje"].join("_");
  return `relatorio${table ? `-${table}` : ""}_${span}.${ext}`;
}

/** One table as CSV (';', BOM, CRLF; decimals with a comma in pt and es, as their spreadsheets expect). */
export function reportCsv(report: ReportsResponse, table: ReportTable, lang: ReportLanguage): string {
  const decimal = new Intl.NumberFormat(lang === "en" ? "en-US" : "pt-BR", { maximumFractionDigits: 1, useGrouping: false });
  const lines = [header(table, lang)];
  for (const r of report[table]) lines.push([rowName(r, table, lang), ...COLUMNS.map((c) => (r[c] === null ? "" : decimal.format(r[c])))]);
  return tableToCsv(lines);
}

/** Both tables as sheets of one workbook, written as it is built (exceljs streaming writer). */
export function reportXlsx(report: ReportsResponse, lang: ReportLanguage): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = "Balcão";
  const t = TEXTS[lang];
  const write = async () => {
    for (const table of ["queues", "attendants"] as const) {
      const sheet = workbook.addWorksheet(t.sheets[table], { views: [{ state: "frozen", ySplit: 1 }] });
      sheet.columns = header(table, lang).map((h, i) => ({ header: h, key: i === 0 ? "name" : COLUMNS[i - 1], width: i === 0 ? 32 : 18 }));
      sheet.getRow(1).font = { bold: true };
      for (const r of report[table]) {
        const row = sheet.addRow({ name: rowName(r, table, lang), ...Object.fromEntries(COLUMNS.map((c) => [c, r[c]])) });
        for (const c of ["avgWaitTime", "avgFirstResponse", "avgSupportTime", "rating"] as const) row.getCell(c).numFmt = "0.0";
        row.commit();
      }
      sheet.addRow([]).commit();
      sheet
        .addRow([
          t.period,
          `${t.from} ${report.period.from ?? t.open}`,
          `${t.to} ${report.period.to ?? t.open}`,
          `${t.timeZone} ${report.period.timeZone}`,
        ])
        .commit();
      sheet.commit();
    }
    await workbook.commit();
  };
  write().catch((err: unknown) => out.destroy(err as Error));
  return out;
}
