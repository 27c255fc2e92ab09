package dev.esgen.bench.scale;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * Draws the scale results as a PNG with two log-log panels side by side: median load latency and read
 * capacity per load, against stream length, one line per snapshot policy. Java2D only, so the chart
 * needs no plotting dependency and runs headless.
 */
public final class ScaleChart {

  private static final int PANEL_WIDTH = 560;
  private static final int HEIGHT = 440;
  private static final int LEFT = 80;
  private static final int RIGHT = 44;
  private static final int TOP = 56;
  private static final int BOTTOM = 110;
  private static final Color[] SERIES_COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c)};

  private ScaleChart() {}

  public static void write(List<ScaleBenchmark.Point> points, Path png) throws IOException {
    BufferedImage image = new BufferedImage(PANEL_WIDTH * 2, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      Map<String, List<ScaleBenchmark.Point>> series = new LinkedHashMap<>();
      for (ScaleBenchmark.Point p : points) {
        series.computeIfAbsent(p.policy(), k -> new ArrayList<>()).add(p);
      }
      panel(g, 0, "Load latency, median", "milliseconds (log)", series, ScaleBenchmark.Point::p50Millis);
      panel(g, PANEL_WIDTH, "Read capacity per load", "RCU (log)", series, ScaleBenchmark.Point::readUnitsPerLoad);
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", png.toFile());
  }

  private static void panel(Graphics2D g, int x0, String title, String yLabel,
      Map<String, List<ScaleBenchmark.Point>> series, ToDoubleFunction<ScaleBenchmark.Point> value) {
    int plotLeft = x0 + LEFT;
    int plotRight = x0 + PANEL_WIDTH - RIGHT;
    int plotTop = TOP;
    int plotBottom = HEIGHT - BOTTOM;

    double minX = Double.MAX_VALUE;
    double maxX = -Double.MAX_VALUE;
    double minY = Double.MAX_VALUE;
    double maxY = -Double.MAX_VALUE;
    for (List<ScaleBenchmark.Point> line : series.values()) {
      for (ScaleBenchmark.Point p : line) {
        minX = Math.min(minX, p.length());
        maxX = Math.max(maxX, p.length());
        double y = Math.max(value.applyAsDouble(p), 1e-3);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
    double lx0 = Math.floor(Math.log10(minX));
    double lx1 = Math.max(lx0 + 1, Math.ceil(Math.log10(maxX)));
    double ly0 = Math.floor(Math.log10(minY));
    double ly1 = Math.max(ly0 + 1, Math.ceil(Math.log10(maxY)));

    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.setColor(Color.BLACK);
    centered(g, title, (plotLeft + plotRight) / 2, 30);

    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.setStroke(new BasicStroke(1f));
    for (int e = (int) lx0; e <= lx1; e++) {
      int x = scale(e, lx0, lx1, plotLeft, plotRight);
      g.setColor(new Color(0xdddddd));
      g.drawLine(x, plotTop, x, plotBottom);
      g.setColor(Color.BLACK);
      centered(g, String.format("%,d", (long) Math.pow(10, e)), x, plotBottom + 18);
    }
    for (int e = (int) ly0; e <= ly1; e++) {
      int y = scale(e, ly1, ly0, plotTop, plotBottom);
      g.setColor(new Color(0xdddddd));
      g.drawLine(plotLeft, y, plotRight, y);
      g.setColor(Color.BLACK);
      String label = e >= 0 ? String.format("%,d", (long) Math.pow(10, e)) : String.valueOf(Math.pow(10, e));
      FontMetrics m = g.getFontMetrics();
      g.drawString(label, plotLeft - 8 - m.stringWidth(label), y + m.getAscent() / 2 - 1);
    }
    g.setColor(Color.BLACK);
    g.drawRect(plotLeft, plotTop, plotRight - plotLeft, plotBottom - plotTop);
    centered(g, "events in the stream (log)", (plotLeft + plotRight) / 2, plotBottom + 40);
    Graphics2D rotated = (Graphics2D) g.create();
    rotated.rotate(-Math.PI / 2);
    FontMetrics m = rotated.getFontMetrics();
    rotated.drawString(yLabel, -((plotTop + plotBottom) / 2) - m.stringWidth(yLabel) / 2, x0 + 20);
    rotated.dispose();

    int index = 0;
    int legendY = plotBottom + 64;
    for (Map.Entry<String, List<ScaleBenchmark.Point>> line : series.entrySet()) {
      Color color = SERIES_COLORS[index % SERIES_COLORS.length];
      g.setColor(color);
      g.setStroke(new BasicStroke(2.5f));
      int[] xs = new int[line.getValue().size()];
      int[] ys = new int[xs.length];
      for (int i = 0; i < xs.length; i++) {
        ScaleBenchmark.Point p = line.getValue().get(i);
        xs[i] = scale(Math.log10(p.length()), lx0, lx1, plotLeft, plotRight);
        ys[i] = scale(Math.log10(Math.max(value.applyAsDouble(p), 1e-3)), ly1, ly0, plotTop, plotBottom);
        g.fillOval(xs[i] - 4, ys[i] - 4, 8, 8);
      }
      g.drawPolyline(xs, ys, xs.length);
      int legendX = plotLeft + index * 230;
      g.drawLine(legendX, legendY, legendX + 24, legendY);
      g.setColor(Color.BLACK);
      g.drawString(line.getKey(), legendX + 30, legendY + 5);
      index++;
    }
  }

  private static int scale(double v, double from, double to, int pixelFrom, int pixelTo) {
    return (int) Math.round(pixelFrom + (v - from) / (to - from) * (pixelTo - pixelFrom));
  }

  private static void centered(Graphics2D g, String text, int x, int y) {
    g.drawString(text, x - g.getFontMetrics().stringWidth(text) / 2, y);
  }
}
