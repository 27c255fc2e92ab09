package dev.esgen.test;

import java.util.List;

/** A started DynamoDB Local, wherever it runs. */
interface RunningServer {

  /**
   * DynamoDB Local's command line: tables in memory (no database file in the working directory) and no
   * telemetry (which would write {@code dynamodb-local-metadata.json} there and call AWS).
   */
  static List<String> arguments(int port) {
    return List.of("-inMemory", "-port", Integer.toString(port), "-disableTelemetry");
  }

  boolean isRunning();

  /** Stops the server and waits until it no longer listens; does nothing when it has stopped already. */
  void stop();
}
