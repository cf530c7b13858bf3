import { BarChart } from "@mui/x-charts/BarChart";
import { useTranslation } from "react-i18next";

/** Today's attendance cycles per local hour (24 bars). Loaded on demand: the chart library stays out of other pages. */
export default function TodayChart({ hours }: { hours: number[] }) {
  const { t } = useTranslation();
  const labels = hours.map((_, h) => `${String(h).padStart(2, "0")}h`);
  return (
    <BarChart
      height={220}
      xAxis={[{ scaleType: "band", data: labels }]}
      yAxis={[{ tickMinStep: 1 }]}
      series={[{ data: hours, label: t("dashboard.today.series"), color: "#2e7d32" }]}
      hideLegend
      margin={{ left: 0, right: 8, top: 8, bottom: 0 }}
    />
  );
}
