public enum AFGetVersion {
    public static let current = "0.1.0"
}
