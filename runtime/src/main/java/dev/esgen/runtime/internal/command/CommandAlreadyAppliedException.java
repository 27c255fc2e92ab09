package dev.esgen.runtime.internal.command;

/**
 * Thrown by a storage layout to the repository, never to users: an append carrying a command id was
 * cancelled because the command's record already exists; a concurrent try of the same command won. The
 * repository answers with the stream as stored, as for any repeat of an applied command.
 *
 * <pre>{@code
 * try {
 *   return layout.append(request);
 * } catch (CommandAlreadyAppliedException e) {
 *   return layout.load(definition, id).orElseThrow();
 * }
 * }</pre>
 */
public final class CommandAlreadyAppliedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public CommandAlreadyAppliedException(String aggregateName, String aid, String commandId) {
    super("command " + commandId + " was already applied to " + aggregateName + " " + aid, null, false, false);
  }
}
