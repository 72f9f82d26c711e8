public enum AudioGraphCommand { public static func main() {} }
