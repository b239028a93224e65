/// Long messages in Japanese, Chinese and Korean (the same as TextSupportTests' LineWrapTests): how the screens wrap
/// CJK text.
enum CJKMessages {
    static let japanese = "「TicTacToe」がローカルネットワーク上のデバイスを検索して接続することを求めています。近くのプレイヤーを見つけるために使用します。"
    static let chinese = "“TicTacToe”想要查找并连接到您本地网络上的设备。TicTacToe使用本地网络来发现您周围的玩家，并与他们对战。"
    static let korean = "TicTacToe이(가) 로컬 네트워크에서 기기를 찾고 연결하려고 합니다. 주변의 플레이어를 찾는 데 로컬 네트워크를 사용합니다."
}
